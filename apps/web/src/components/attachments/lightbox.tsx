import { useEffect, useId, useRef } from 'react';
import { CSpinner } from '@coreui/react';
import type { AttachmentItem } from '@pipsense/contract';
import { failureMessage } from '../../lib/api';
import { useBlobSource, useImageBlob } from './attachments-api';

function FullImage({ item, label }: { item: AttachmentItem; label: string }) {
  const image = useImageBlob(item.url);
  const source = useBlobSource(image.data);
  if (image.isError)
    return (
      <p className="att-lightbox-missing" role="alert">
        {failureMessage(image.error, 'The image could not be loaded.')}
      </p>
    );
  if (!image.data)
    return (
      <div role="status" aria-label="Loading the image">
        <CSpinner color="light" aria-hidden="true" />
      </div>
    );
  return (
    <img
      ref={source}
      className="att-lightbox-image"
      alt={item.caption || label}
      width={item.width}
      height={item.height}
    />
  );
}

const FOCUSABLE = 'button:not([disabled]), [href], [tabindex]:not([tabindex="-1"])';

/**
 * An item's images at full size, one at a time with its caption: ← and → (or the buttons) go to the previous and next
 * image, wrapping round; Escape or Close leaves and gives focus back to what had it. Focus stays inside while it is
 * open. It is drawn where it is rendered, fixed over the whole window, so inside a modal it stays within that modal's
 * focus trap; its keys are taken before the modal sees them (Escape closes the viewer, not the modal under it).
 */
export function Lightbox({
  items,
  index,
  onIndex,
  onClose,
}: {
  items: readonly AttachmentItem[];
  index: number;
  onIndex: (index: number) => void;
  onClose: () => void;
}) {
  const titleId = useId();
  const dialog = useRef<HTMLDivElement>(null);
  const close = useRef<HTMLButtonElement>(null);
  const count = items.length;
  const at = Math.min(Math.max(index, 0), count - 1);
  const item = items[at];
  const step = (by: number) => count > 1 && onIndex((at + by + count) % count);

  // The latest handlers, for the one key listener installed while the viewer is open.
  const keys = useRef({ step, onClose });
  useEffect(() => {
    keys.current = { step, onClose };
  });

  useEffect(() => {
    const previous = document.activeElement instanceof HTMLElement ? document.activeElement : null;
    close.current?.focus();
    const onKey = (event: KeyboardEvent) => {
      const root = dialog.current;
      if (!root) return;
      if (event.key === 'Escape') keys.current.onClose();
      else if (event.key === 'ArrowLeft') keys.current.step(-1);
      else if (event.key === 'ArrowRight') keys.current.step(1);
      else if (event.key === 'Tab') {
        const focusable = [...root.querySelectorAll<HTMLElement>(FOCUSABLE)];
        const first = focusable[0];
        const last = focusable.at(-1);
        if (!first || !last) return;
        const inside = root.contains(document.activeElement);
        if (event.shiftKey && (!inside || document.activeElement === first)) last.focus();
        else if (!event.shiftKey && (!inside || document.activeElement === last)) first.focus();
        else return event.stopPropagation();
      } else return;
      event.preventDefault();
      event.stopPropagation();
    };
    // Capturing on the document runs before a surrounding modal's own Escape and Tab handling.
    document.addEventListener('keydown', onKey, true);
    return () => {
      document.removeEventListener('keydown', onKey, true);
      previous?.focus();
    };
  }, []);

  if (!item) return null;
  const label = `Image ${at + 1} of ${count}`;
  return (
    <div ref={dialog} className="att-lightbox" role="dialog" aria-modal="true" aria-labelledby={titleId}>
      <div className="att-lightbox-bar">
        <h2 id={titleId} className="att-lightbox-title">
          {label}
        </h2>
        <button
          ref={close}
          type="button"
          className="btn-close btn-close-white"
          aria-label="Close the image viewer"
          onClick={onClose}
        />
      </div>
      <div className="att-lightbox-stage">
        <FullImage key={item.id} item={item} label={label} />
      </div>
      <div className="att-lightbox-foot">
        <button
          type="button"
          className="btn btn-outline-light att-lightbox-nav"
          aria-label="Previous image"
          disabled={count < 2}
          onClick={() => step(-1)}
        >
          ‹
        </button>
        <p className="att-lightbox-caption">{item.caption || <span className="opacity-75">No caption</span>}</p>
        <button
          type="button"
          className="btn btn-outline-light att-lightbox-nav"
          aria-label="Next image"
          disabled={count < 2}
          onClick={() => step(1)}
        >
          ›
        </button>
      </div>
    </div>
  );
}
