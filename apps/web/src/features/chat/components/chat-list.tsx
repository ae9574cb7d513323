import { CButton, CSpinner } from '@coreui/react';
import CIcon from '@coreui/icons-react';
import { cilPencil, cilTrash } from '@coreui/icons';
import type { Chat } from '@pipsense/contract';

interface ChatListProps {
  chats: readonly Chat[];
  selectedId: string | null;
  loading: boolean;
  onSelect: (chat: Chat) => void;
  onNew: () => void;
  onRename: (chat: Chat) => void;
  onDelete: (chat: Chat) => void;
}

/** docs/PRODUCT.md, AI chat: the topic's chats in a 300 px scrolling list, each with rename and delete. */
export function ChatList({ chats, selectedId, loading, onSelect, onNew, onRename, onDelete }: ChatListProps) {
  return (
    <section aria-labelledby="chat-list-heading">
      <div className="d-flex align-items-center justify-content-between mb-2">
        <h2 id="chat-list-heading" className="chat-legend mb-0">
          Chats
        </h2>
        <CButton color="primary" variant="outline" size="sm" onClick={onNew}>
          + New
        </CButton>
      </div>
      <div className="chat-list border rounded" aria-busy={loading}>
        {loading && chats.length === 0 ? (
          <div className="d-flex align-items-center justify-content-center gap-2 h-100 text-body-secondary small">
            <CSpinner size="sm" aria-hidden="true" /> Loading chats…
          </div>
        ) : chats.length === 0 ? (
          <div className="d-flex align-items-center justify-content-center h-100 px-3 text-center text-body-secondary small">
            No chats on this topic yet. Start one with + New.
          </div>
        ) : (
          <ul className="list-unstyled mb-0" aria-label="Chats">
            {chats.map((chat) => {
              const active = chat._id === selectedId;
              return (
                <li key={chat._id} className={`chat-item${active ? ' active' : ''}`}>
                  <button
                    type="button"
                    className="chat-item-select"
                    aria-current={active ? 'true' : undefined}
                    title={chat.title}
                    onClick={() => onSelect(chat)}
                  >
                    {chat.title}
                  </button>
                  <button
                    type="button"
                    className="chat-item-action"
                    aria-label="Rename chat"
                    onClick={() => onRename(chat)}
                  >
                    <CIcon icon={cilPencil} size="sm" />
                  </button>
                  <button
                    type="button"
                    className="chat-item-action chat-item-delete"
                    aria-label="Delete chat"
                    onClick={() => onDelete(chat)}
                  >
                    <CIcon icon={cilTrash} size="sm" />
                  </button>
                </li>
              );
            })}
          </ul>
        )}
      </div>
    </section>
  );
}
