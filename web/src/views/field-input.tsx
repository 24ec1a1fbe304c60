/** A provider field: a password input for a key (never shown back), a text input otherwise. */
export function FieldInput(props: {
  id: string;
  secret: boolean;
  value: string;
  placeholder?: string;
  onValue: (value: string) => void;
}) {
  const common = {
    id: props.id,
    autocomplete: 'off',
    value: props.value,
    placeholder: props.placeholder,
    onInput: (e: { currentTarget: HTMLInputElement }) => props.onValue(e.currentTarget.value),
  };
  return props.secret ? <input type="password" {...common} /> : <input type="text" {...common} />;
}
