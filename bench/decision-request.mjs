// The 6-question request every decision bench sends: two of each question type about a support ticket.
export const SIX_QUESTION_REQUEST = {
  model: 'arbiter-latest',
  state:
    'Help! My payouts have been failing for 3 days and the refund for order 4471 never arrived. ' +
    'The dashboard shows error 502 when I open the billing page.',
  questions: {
    is_urgent: {
      type: 'noul',
      instructions: 'Does this convey urgency?',
      criteria: { true: 'failing, blocked, needs action today', false: 'a question that can wait' },
    },
    mentions_money: { type: 'noul', instructions: 'Is money (payouts, refunds, charges) involved?' },
    department: {
      type: 'choice',
      instructions: 'Which team should handle this?',
      criteria: { billing: 'payments, payouts and refunds', technical: 'errors, outages, bugs', sales: null },
    },
    channel: {
      type: 'choice',
      instructions: 'Where should the reply go?',
      criteria: { email: null, phone: 'urgent callbacks', chat: null, forum: null },
    },
    severity: {
      type: 'score',
      instructions: 'How severe is the issue?',
      criteria: ['Cosmetic', 'Workaround exists', 'Blocking; payouts failing, no workaround'],
    },
    sentiment: {
      type: 'score',
      instructions: 'How upset is the customer?',
      criteria: ['calm', 'concerned', 'frustrated', 'angry, help!'],
    },
  },
};
