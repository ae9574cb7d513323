import { useState, type KeyboardEvent } from 'react';
import { CBadge, CCloseButton, CFormInput } from '@coreui/react';

interface ChipsInputProps {
  id: string;
  value: readonly string[];
  onChange: (next: string[]) => void;
  /** How a typed word becomes a chip ('eur/usd' → 'EUR_USD'). */
  normalise: (text: string) => string;
  placeholder?: string;
  invalid?: boolean;
  /** Names a chip's remove button: 'Remove EUR_USD'. */
  what: string;
}

/** Words as chips: Enter, a comma or leaving the field adds what was typed; Backspace in an empty field removes the last. */
export function ChipsInput({ id, value, onChange, normalise, placeholder, invalid, what }: ChipsInputProps) {
  const [text, setText] = useState('');
  const add = () => {
    const words = text
      .split(/[,;]/)
      .map(normalise)
      .filter((w) => w !== '' && !value.includes(w));
    if (words.length > 0) onChange([...value, ...new Set(words)]);
    setText('');
  };
  const onKeyDown = (event: KeyboardEvent<HTMLInputElement>) => {
    if (event.key === 'Enter' || event.key === ',') {
      event.preventDefault();
      add();
    } else if (event.key === 'Backspace' && text === '' && value.length > 0) onChange(value.slice(0, -1));
  };
  return (
    <div className="chips-input">
      {value.length > 0 && (
        <ul className="chips-list list-unstyled" aria-label={`${what} chosen`}>
          {value.map((chip) => (
            <li key={chip}>
              <CBadge color="secondary" shape="rounded-pill" className="chip">
                {chip}
                <CCloseButton
                  white
                  aria-label={`Remove ${chip}`}
                  onClick={() => onChange(value.filter((c) => c !== chip))}
                />
              </CBadge>
            </li>
          ))}
        </ul>
      )}
      <CFormInput
        id={id}
        size="sm"
        value={text}
        placeholder={placeholder}
        invalid={invalid}
        onChange={(e) => setText(e.target.value)}
        onKeyDown={onKeyDown}
        onBlur={add}
      />
    </div>
  );
}
