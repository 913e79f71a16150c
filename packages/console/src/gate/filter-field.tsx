/** One choice of a select field: the value sent, and the words shown (the value when absent). */
export interface FieldOption {
  readonly value: string;
  readonly label?: string;
}

interface CommonProps {
  /** The visible label, which also names the field for a screen reader. */
  readonly label: string;
  /** The form field's name; tests and the browser's form history find the field by it. */
  readonly name?: string;
  readonly value: string;
  readonly onValue: (value: string) => void;
}

/** A select offers `options`; a text or date-time field is typed into and reports each keystroke. */
export type FilterFieldProps = CommonProps &
  (
    | { readonly options: readonly FieldOption[] }
    | { readonly type?: 'text'; readonly size?: number }
    | { readonly type: 'datetime-local' }
  );

/**
 * One labelled field of a filter form: the gate's audit log and the team view build every filter
 * from it, so a field looks and behaves the same on both.
 */
export function FilterField(props: FilterFieldProps) {
  const { label, name, value, onValue } = props;
  if ('options' in props)
    return (
      <label>
        {label}
        <select name={name} value={value} onChange={(e) => onValue(e.currentTarget.value)}>
          {props.options.map((option) => (
            <option key={option.value} value={option.value}>
              {option.label ?? option.value}
            </option>
          ))}
        </select>
      </label>
    );
  const onInput = (e: { currentTarget: HTMLInputElement }) => onValue(e.currentTarget.value);
  // Two elements rather than one with a variable type: the input's attribute types tie `type`
  // to the attributes it allows.
  if (props.type === 'datetime-local')
    return (
      <label>
        {label}
        <input name={name} type="datetime-local" value={value} onInput={onInput} />
      </label>
    );
  return (
    <label>
      {label}
      <input name={name} size={props.size} value={value} onInput={onInput} />
    </label>
  );
}
