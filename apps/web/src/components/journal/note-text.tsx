/**
 * A note's markdown source shown as plain text: paragraphs at blank lines, line breaks kept. It is never parsed as
 * HTML, so `<script>` or `<img onerror>` in a note stays visible text.
 */
export function NoteText({ text, className }: { text: string; className?: string }) {
  const paragraphs = text
    .replace(/\r\n?/g, '\n')
    .split(/\n{2,}/)
    .filter((p) => p.trim() !== '');
  return (
    <div className={['note-text', className].filter(Boolean).join(' ')}>
      {paragraphs.map((paragraph, i) => (
        <p key={i}>
          {paragraph.split('\n').map((line, j) => (
            <span key={j}>
              {j > 0 && <br />}
              {line}
            </span>
          ))}
        </p>
      ))}
    </div>
  );
}
