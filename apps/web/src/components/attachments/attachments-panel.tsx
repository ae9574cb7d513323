import {
  useEffect,
  useId,
  useRef,
  useState,
  type ClipboardEvent,
  type DragEvent,
  type FormEvent,
  type KeyboardEvent,
} from 'react';
import { toast } from 'react-toastify';
import { CAlert, CButton, CFormInput, CSpinner } from '@coreui/react';
import { ATTACHMENT_LIMITS, ATTACHMENT_TYPES, type AttachmentItem } from '@pipsense/contract';
import { ApiError, failureMessage } from '../../lib/api';
import { formatBytes } from '../data/format';
import {
  uploadAttachment,
  useAttachments,
  useAttachmentsChanged,
  useAttachmentUsage,
  useBlobSource,
  useDeleteAttachment,
  useEditCaption,
  useImageBlob,
  type AttachmentOwner,
} from './attachments-api';
import { Lightbox } from './lightbox';
import './attachments.css';

/**
 * Props: the item named as the contract names it, the section's heading ('Images' unless told), and what to refresh
 * when the item's count of images changes (a screen listing items with `attachmentCount` invalidates its list there).
 */
export type AttachmentsPanelProps = AttachmentOwner & { title?: string; onCountChange?: () => void };

interface Upload {
  key: number;
  name: string;
  sent: number;
  total: number;
  /** 'reading': every byte is sent and the server is checking and storing the image. */
  phase: 'sending' | 'reading';
}

const ACCEPT = ATTACHMENT_TYPES.join(',');
const isImageType = (type: string) => (ATTACHMENT_TYPES as readonly string[]).includes(type);
const nameOf = (file: File) => (file.name ? `“${file.name}”` : 'The pasted image');

/** Why a file is not sent (checked before any byte goes out), or null. */
function fileProblem(file: File): string | null {
  if (!isImageType(file.type)) return `${nameOf(file)} is not a PNG, JPEG or WebP image.`;
  if (file.size > ATTACHMENT_LIMITS.fileBytes)
    return `${nameOf(file)} is ${formatBytes(file.size)}; an image may be at most ${formatBytes(ATTACHMENT_LIMITS.fileBytes)}.`;
  return null;
}

/** The server's refusal as it said it; a bare 413 (a proxy's, with no body) still says what the limit is. */
function uploadFailure(file: File, error: unknown): string {
  if (error instanceof ApiError && error.status === 413 && !error.code)
    return `${nameOf(file)} is too large to upload; an image may be at most ${formatBytes(ATTACHMENT_LIMITS.fileBytes)}.`;
  return `${nameOf(file)}: ${failureMessage(error, 'the image could not be uploaded.')}`;
}

function Thumbnail({ item, alt }: { item: AttachmentItem; alt: string }) {
  const image = useImageBlob(item.thumbnailUrl);
  const source = useBlobSource(image.data);
  if (image.isError) return <span className="att-thumb-missing small">Image unavailable</span>;
  if (!image.data) return <CSpinner size="sm" color="secondary" aria-label="Loading the thumbnail" />;
  return <img ref={source} className="att-thumb-image" alt={alt} />;
}

function CaptionForm({ item, owner, onDone }: { item: AttachmentItem; owner: AttachmentOwner; onDone: () => void }) {
  const [caption, setCaption] = useState(item.caption);
  const edit = useEditCaption(owner);
  const tooLong = caption.trim().length > ATTACHMENT_LIMITS.caption;
  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (tooLong) return;
    if (caption.trim() === item.caption) return onDone();
    edit.mutate({ id: item.id, caption: caption.trim() }, { onSuccess: onDone });
  };
  const onKeyDown = (event: KeyboardEvent) => {
    // Escape leaves the caption, not the modal the panel may sit in.
    if (event.key !== 'Escape') return;
    event.stopPropagation();
    onDone();
  };
  return (
    <form className="att-caption-form" onSubmit={submit} aria-label="Edit the caption">
      <CFormInput
        size="sm"
        autoFocus
        value={caption}
        aria-label="Caption"
        placeholder="What does this image show?"
        invalid={tooLong || edit.isError}
        onChange={(e) => setCaption(e.target.value)}
        onKeyDown={onKeyDown}
      />
      <div className="att-caption-actions">
        <CButton type="submit" size="sm" color="primary" disabled={edit.isPending || tooLong}>
          Save
        </CButton>
        <CButton type="button" size="sm" color="secondary" variant="ghost" onClick={onDone}>
          Cancel
        </CButton>
      </div>
      {(tooLong || edit.isError) && (
        <div className="text-danger small" role="alert">
          {tooLong
            ? `A caption may be at most ${ATTACHMENT_LIMITS.caption} characters.`
            : failureMessage(edit.error, 'The caption could not be saved.')}
        </div>
      )}
    </form>
  );
}

function DeleteConfirm({
  item,
  owner,
  onDone,
  onDeleted,
}: {
  item: AttachmentItem;
  owner: AttachmentOwner;
  onDone: () => void;
  onDeleted: (() => void) | undefined;
}) {
  const remove = useDeleteAttachment(owner);
  const confirm = () =>
    remove.mutate(item, {
      onSuccess: () => {
        onDeleted?.();
        toast.success('Image deleted');
        onDone();
      },
    });
  return (
    <div className="att-confirm" role="group" aria-label="Delete this image?">
      <span className="small fw-semibold">Delete this image?</span>
      <div className="att-caption-actions">
        <CButton size="sm" color="danger" onClick={confirm} disabled={remove.isPending}>
          {remove.isPending && <CSpinner size="sm" className="me-1" aria-hidden="true" />}
          Delete
        </CButton>
        <CButton size="sm" color="secondary" variant="ghost" onClick={onDone} autoFocus>
          Keep
        </CButton>
      </div>
      {remove.isError && (
        <div className="text-danger small" role="alert">
          {failureMessage(remove.error, 'The image could not be deleted.')}
        </div>
      )}
    </div>
  );
}

function UploadRow({ upload }: { upload: Upload }) {
  const percent = upload.total > 0 ? Math.min(100, Math.round((upload.sent / upload.total) * 100)) : 0;
  return (
    <li className="att-upload small">
      <span className="text-truncate">
        {upload.phase === 'reading' ? 'Saving' : 'Uploading'} {upload.name}…
      </span>
      {upload.phase === 'reading' ? (
        <CSpinner size="sm" color="primary" aria-label={`Saving ${upload.name}`} />
      ) : (
        <div
          className="progress att-progress"
          role="progressbar"
          aria-label={`Uploading ${upload.name}`}
          aria-valuenow={percent}
          aria-valuemin={0}
          aria-valuemax={100}
        >
          <div className="progress-bar" style={{ width: `${percent}%` }} />
        </div>
      )}
    </li>
  );
}

/**
 * The images of a trade, a journal day, a playbook or a missed trade (docs/PRODUCT.md, Beyond the base: Images):
 * thumbnails that open the lightbox, an inline caption editor and a delete that asks first; images come in by paste
 * (while focus is in the panel, or anywhere in a dialog or page that holds this panel alone), drop or the file picker, checked here first for type, size and the per-item count,
 * then sent one request each with its own progress. The usage line under it says the trader's storage against the
 * quota.
 */
export function AttachmentsPanel({ title = 'Images', onCountChange, ...props }: AttachmentsPanelProps) {
  const owner: AttachmentOwner = props;
  const headingId = useId();
  const inputId = useId();
  const hintId = useId();
  const list = useAttachments(owner);
  const usage = useAttachmentUsage();
  const changed = useAttachmentsChanged(owner);
  const [uploads, setUploads] = useState<Upload[]>([]);
  const [problems, setProblems] = useState<string[]>([]);
  const [dragging, setDragging] = useState(false);
  const [viewing, setViewing] = useState<number | null>(null);
  const [editing, setEditing] = useState<string | null>(null);
  const [deleting, setDeleting] = useState<string | null>(null);
  const nextKey = useRef(0);
  const aborts = useRef<AbortController | null>(null);

  // Uploads still running when the panel goes away are cancelled: nothing would show their outcome.
  useEffect(() => {
    const controller = new AbortController();
    aborts.current = controller;
    return () => controller.abort();
  }, []);

  const items = list.data ?? [];
  const full = items.length + uploads.length >= ATTACHMENT_LIMITS.perItem;

  const send = (file: File) => {
    const key = ++nextKey.current;
    const name = file.name || 'pasted image';
    const update = (patch: Partial<Upload>) =>
      setUploads((all) => all.map((u) => (u.key === key ? { ...u, ...patch } : u)));
    setUploads((all) => [...all, { key, name, sent: 0, total: file.size, phase: 'sending' }]);
    uploadAttachment(owner, file, {
      onProgress: (sent, total) => update({ sent, total }),
      onSent: () => update({ phase: 'reading' }),
      ...(aborts.current ? { signal: aborts.current.signal } : {}),
    })
      .then(async () => {
        onCountChange?.();
        await changed();
      })
      .catch((error: unknown) => {
        if (error instanceof DOMException && error.name === 'AbortError') return;
        setProblems((all) => [...all, uploadFailure(file, error)]);
      })
      .finally(() => setUploads((all) => all.filter((u) => u.key !== key)));
  };

  const add = (files: readonly File[]) => {
    const found: string[] = [];
    let room = ATTACHMENT_LIMITS.perItem - items.length - uploads.length;
    for (const file of files) {
      const problem = fileProblem(file);
      if (problem) found.push(problem);
      else if (room <= 0)
        found.push(`${nameOf(file)} was not added: an item holds at most ${ATTACHMENT_LIMITS.perItem} images.`);
      else {
        room -= 1;
        send(file);
      }
    }
    setProblems(found);
  };

  const onPaste = (event: ClipboardEvent) => {
    const files = [...event.clipboardData.files];
    if (files.length === 0) return;
    event.preventDefault();
    add(files);
  };
  // A paste outside any panel, in the dialog (or page) that holds this panel alone, comes here too: the trader need
  // not click the panel first. Text fields keep their pastes, and a dialog or page with several panels asks for one.
  const section = useRef<HTMLElement>(null);
  const addLatest = useRef(add);
  useEffect(() => {
    addLatest.current = add;
  });
  useEffect(() => {
    const onDocumentPaste = (event: globalThis.ClipboardEvent) => {
      const panel = section.current;
      const files = [...(event.clipboardData?.files ?? [])];
      if (!panel || event.defaultPrevented || files.length === 0) return;
      const target = event.target instanceof Element ? event.target : null;
      if (target && (target.closest('.att-panel') || target.closest('input, textarea, select, [contenteditable]')))
        return;
      const scope = target?.closest('[role="dialog"]') ?? document;
      if (!scope.contains(panel) || scope.querySelectorAll('.att-panel').length !== 1) return;
      event.preventDefault();
      addLatest.current(files);
    };
    document.addEventListener('paste', onDocumentPaste);
    return () => document.removeEventListener('paste', onDocumentPaste);
  }, []);
  const onDragOver = (event: DragEvent) => {
    if (!event.dataTransfer.types.includes('Files')) return;
    event.preventDefault();
    event.dataTransfer.dropEffect = 'copy';
    setDragging(true);
  };
  const onDrop = (event: DragEvent) => {
    event.preventDefault();
    setDragging(false);
    add([...event.dataTransfer.files]);
  };

  return (
    <section
      ref={section}
      className={`att-panel mb-4${dragging ? ' att-dragging' : ''}`}
      aria-labelledby={headingId}
      onPaste={onPaste}
      onDragOver={onDragOver}
      onDragLeave={(event) => {
        if (!event.currentTarget.contains(event.relatedTarget as Node | null)) setDragging(false);
      }}
      onDrop={onDrop}
    >
      <h3 id={headingId} className="h6 fw-semibold mb-2">
        {title}
        {items.length > 0 && <span className="text-body-secondary fw-normal"> · {items.length}</span>}
      </h3>

      {list.isError ? (
        <CAlert color="danger" className="py-2 small" role="alert">
          {failureMessage(list.error, 'The images could not be loaded.')}{' '}
          <CButton color="link" size="sm" className="p-0 align-baseline" onClick={() => void list.refetch()}>
            Try again
          </CButton>
        </CAlert>
      ) : list.isPending ? (
        <div className="att-loading" role="status" aria-label="Loading the images">
          <CSpinner size="sm" color="primary" aria-hidden="true" />
        </div>
      ) : (
        items.length > 0 && (
          <ul className="att-grid list-unstyled" aria-label={`${title} of this item`}>
            {items.map((item, index) => {
              const alt = item.caption || `Image ${index + 1}`;
              return (
                <li key={item.id} className="att-card">
                  <button
                    type="button"
                    className="att-thumb"
                    aria-label={`Open image ${index + 1}${item.caption ? `: ${item.caption}` : ''}`}
                    onClick={() => setViewing(index)}
                  >
                    <Thumbnail item={item} alt={alt} />
                  </button>
                  {editing === item.id ? (
                    <CaptionForm item={item} owner={owner} onDone={() => setEditing(null)} />
                  ) : deleting === item.id ? (
                    <DeleteConfirm
                      item={item}
                      owner={owner}
                      onDone={() => setDeleting(null)}
                      onDeleted={onCountChange}
                    />
                  ) : (
                    <>
                      <p className={`att-caption small${item.caption ? '' : ' text-body-secondary'}`}>
                        {item.caption || 'No caption'}
                      </p>
                      <div className="att-card-actions">
                        <CButton
                          size="sm"
                          color="secondary"
                          variant="ghost"
                          aria-label={`Edit the caption of image ${index + 1}`}
                          onClick={() => setEditing(item.id)}
                        >
                          Edit caption
                        </CButton>
                        <CButton
                          size="sm"
                          color="danger"
                          variant="ghost"
                          aria-label={`Delete image ${index + 1}`}
                          onClick={() => setDeleting(item.id)}
                        >
                          Delete
                        </CButton>
                      </div>
                    </>
                  )}
                </li>
              );
            })}
          </ul>
        )
      )}

      {uploads.length > 0 && (
        <ul className="att-uploads list-unstyled" aria-label="Uploads">
          {uploads.map((upload) => (
            <UploadRow key={upload.key} upload={upload} />
          ))}
        </ul>
      )}

      {problems.length > 0 && (
        <CAlert color="danger" className="att-problems small" role="alert" dismissible onClose={() => setProblems([])}>
          {problems.length === 1 ? (
            problems[0]
          ) : (
            <ul className="mb-0 ps-3">
              {problems.map((problem, i) => (
                <li key={i}>{problem}</li>
              ))}
            </ul>
          )}
        </CAlert>
      )}

      {/* Focusable, so a click here and then Ctrl+V pastes into this item, not into another on the screen. */}
      <div
        className="att-drop"
        tabIndex={0}
        role="group"
        aria-label={`Add images to ${title}`}
        aria-describedby={hintId}
      >
        <span id={hintId} className="small">
          {full
            ? `This holds the most images it can (${ATTACHMENT_LIMITS.perItem}); delete one to add another.`
            : 'Paste, drop or choose an image'}
          <span className="text-body-secondary d-block att-drop-limits">
            PNG, JPEG or WebP, up to {formatBytes(ATTACHMENT_LIMITS.fileBytes)} each, {ATTACHMENT_LIMITS.perItem} per
            item
          </span>
        </span>
        <input
          id={inputId}
          type="file"
          accept={ACCEPT}
          multiple
          className="visually-hidden"
          disabled={full}
          onChange={(event) => {
            add([...(event.target.files ?? [])]);
            event.target.value = '';
          }}
        />
        <label htmlFor={inputId} className={`btn btn-sm btn-outline-primary mb-0${full ? ' disabled' : ''}`}>
          Choose images
        </label>
      </div>

      {usage.data && (
        <p className="att-usage small text-body-secondary mb-0">
          Storage: {formatBytes(usage.data.bytes)} of {formatBytes(usage.data.quota)}
        </p>
      )}

      {viewing !== null && items.length > 0 && (
        <Lightbox items={items} index={viewing} onIndex={setViewing} onClose={() => setViewing(null)} />
      )}
    </section>
  );
}
