import { CBadge, CCloseButton } from '@coreui/react';
import type { TradeTag } from '@pipsense/contract';
import { TAG_KIND_STYLE } from '../../lib/tags-query';

interface TagBadgeProps {
  tag: Pick<TradeTag, 'name' | 'kind'>;
  /** Shows a remove button (in a picker). */
  onRemove?: () => void;
}

/** A tag as a pill in its kind's colour (setup blue, mistake red, emotion amber), named with its kind for readers. */
export function TagBadge({ tag, onRemove }: TagBadgeProps) {
  const style = TAG_KIND_STYLE[tag.kind];
  return (
    <CBadge
      color={style.color}
      textColor={tag.kind === 'emotion' ? 'dark' : undefined}
      shape="rounded-pill"
      className="tag-badge"
      title={`${style.label}: ${tag.name}`}
    >
      <span className="visually-hidden">{style.label}: </span>
      {tag.name}
      {onRemove && (
        <CCloseButton
          className="tag-badge-remove"
          white={tag.kind !== 'emotion'}
          aria-label={`Remove tag ${tag.name}`}
          onClick={onRemove}
        />
      )}
    </CBadge>
  );
}

/** A row's tags, wrapping; nothing when it has none. */
export function TagBadges({ tags }: { tags: readonly Pick<TradeTag, 'id' | 'name' | 'kind'>[] }) {
  if (tags.length === 0) return null;
  return (
    <span className="tag-badges">
      {tags.map((tag) => (
        <TagBadge key={tag.id} tag={tag} />
      ))}
    </span>
  );
}
