import { describe, expect, it } from 'vitest';
import { judgeMassAssignment } from './mass-assignment.js';

const asked = (removed: string, inserted: string) => judgeMassAssignment(inserted, removed).length > 0;

describe('a record written from the whole request input', () => {
  it('the request input given whole to a create or update, in any framework', () => {
    expect(asked('', 'const user = await User.create(req.body);')).toBe(true);
    expect(asked('', '@account.update(params.require(:account).permit!)')).toBe(true);
    expect(asked('', '$user->fill($request->all())->save();')).toBe(true);
    expect(asked('', 'await prisma.user.update({ where: { id }, data: req.body });')).toBe(true);
    expect(asked('', 'Order.objects.create(**request.data)')).toBe(true);
    expect(asked('', 'await User.create({ ...req.body, ownerId: user.id });')).toBe(true);
  });

  it('a local input counts as whole when the code it replaces picked fields out of it', () => {
    expect(
      asked(
        'const user = await User.create({ name: body.name, email: body.email });',
        'const user = await User.create(body);',
      ),
    ).toBe(true);
    // Without fields picked before, a local name may already be validated: not read as the request.
    expect(asked('', 'const order = await Order.create(data);')).toBe(false);
  });

  it('named fields, hashes and unchanged code are routine', () => {
    expect(
      asked(
        'const user = await User.create({ name: body.name, email: body.email });',
        'const user = await User.create({ name: body.name.trim(), email: body.email.toLowerCase() });',
      ),
    ).toBe(false);
    expect(asked('const mac = hmac.update(body.toString());', 'hmac.update(body);')).toBe(false);
    expect(asked('User.create(req.body);', 'User.create(req.body);\nlog(req.id);')).toBe(false);
  });
});
