import { useCallback } from 'react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { AttachmentItem, AttachmentTarget, Envelope } from '@pipsense/contract';
import { config } from '../../config/env';
import { authBlob, authRequest, authUpload, type UploadOptions } from '../../lib/api';
import { queryKeys } from '../../lib/query-keys';

type One = Envelope & { data: AttachmentItem };
type Usage = Envelope & { data: { bytes: number; quota: number; count: number } };

const base = `${config.backend}/api/v1/attachment`;

/** The item whose images a panel shows: a trade by its keys, a journal day by its date, a playbook or missed trade. */
export type AttachmentOwner =
  | { target: Extract<AttachmentTarget, 'trade'>; accountId: string; tradeId: string }
  | { target: Extract<AttachmentTarget, 'day'>; date: string }
  | { target: Extract<AttachmentTarget, 'playbook' | 'missed'>; id: string };

/** The contract's target fields of an item (the list's query and the upload's form fields). */
function ownerFields(owner: AttachmentOwner): Record<string, string> {
  switch (owner.target) {
    case 'trade':
      return { target: owner.target, accountId: owner.accountId, tradeId: owner.tradeId };
    case 'day':
      return { target: owner.target, date: owner.date };
    default:
      return { target: owner.target, id: owner.id };
  }
}

const ownerKey = (owner: AttachmentOwner) => queryKeys.attachments.of(...Object.values(ownerFields(owner)));

/** An image route as the server names it (a path on this site, or a whole URL when the API is served apart). */
const resolve = (url: string) => (/^https?:\/\//.test(url) ? url : `${config.backend}${url}`);

/** GET attachment/get_attachments: the item's images, oldest first. */
export const useAttachments = (owner: AttachmentOwner) =>
  useQuery({
    queryKey: ownerKey(owner),
    queryFn: ({ signal }) =>
      authRequest<Envelope & { data: AttachmentItem[] }>(
        'GET',
        `${base}/get_attachments`,
        ownerFields(owner),
        signal,
      ).then((b) => b.data),
  });

/** GET attachment/get_usage: the bytes the trader's images take against the quota. */
export const useAttachmentUsage = () =>
  useQuery({
    queryKey: queryKeys.attachments.usage,
    queryFn: ({ signal }) => authRequest<Usage>('GET', `${base}/get_usage`, undefined, signal).then((b) => b.data),
  });

/**
 * What an item's images changing refreshes: its list, the usage line, and for a trade the trade list (its rows carry
 * `attachmentCount`).
 */
export function useAttachmentsChanged(owner: AttachmentOwner) {
  const client = useQueryClient();
  return async () => {
    await client.invalidateQueries({ queryKey: ownerKey(owner) });
    void client.invalidateQueries({ queryKey: queryKeys.attachments.usage });
    if (owner.target === 'trade') void client.invalidateQueries({ queryKey: queryKeys.tradeHistory.all });
  };
}

/** POST attachment/upload (multipart): the item's fields first and the file last, as the server reads them. */
export function uploadAttachment(owner: AttachmentOwner, file: File, options: UploadOptions) {
  const form = new FormData();
  for (const [name, value] of Object.entries(ownerFields(owner))) form.append(name, value);
  form.append('file', file, file.name || 'pasted-image');
  return authUpload<One>(`${base}/upload`, form, options);
}

/** POST attachment/edit_attachment/:id `{caption}`. */
export function useEditCaption(owner: AttachmentOwner) {
  const changed = useAttachmentsChanged(owner);
  return useMutation({
    mutationFn: ({ id, caption }: { id: string; caption: string }) =>
      authRequest<One>('POST', `${base}/edit_attachment/${encodeURIComponent(id)}`, {
        caption,
      }),
    onSuccess: changed,
  });
}

/** POST attachment/delete_attachment/:id. */
export function useDeleteAttachment(owner: AttachmentOwner) {
  const changed = useAttachmentsChanged(owner);
  return useMutation({
    mutationFn: (item: AttachmentItem) =>
      authRequest<One>('POST', `${base}/delete_attachment/${encodeURIComponent(item.id)}`),
    onSuccess: changed,
  });
}

/**
 * An image's bytes, fetched with the bearer token in its header (the image routes need it; a token never goes in a
 * URL). Cached by URL for as long as the page lives: a stored image never changes.
 */
export const useImageBlob = (url: string) =>
  useQuery({
    queryKey: queryKeys.attachments.image(url),
    queryFn: ({ signal }) => authBlob(resolve(url), signal),
    staleTime: Infinity,
  });

/**
 * A ref for an `<img>` that shows `blob` through an object URL, revoked when the image unmounts or its blob changes
 * (React runs the ref's cleanup), so no URL outlives the element that shows it.
 */
export function useBlobSource(blob: Blob | undefined) {
  return useCallback(
    (node: HTMLImageElement | null) => {
      if (!node || !blob) return;
      const url = URL.createObjectURL(blob);
      node.src = url;
      return () => {
        node.removeAttribute('src');
        URL.revokeObjectURL(url);
      };
    },
    [blob],
  );
}
