import { useRef, useState } from 'react';
import { CBadge, CCard, CCardBody, CCardFooter, CCardHeader, CCol, CRow } from '@coreui/react';
import type { Chat, ChatTopic } from '@pipsense/contract';
import { aiBase } from '../../../config/env';
import { browserTimeZone } from '../../../lib/time-zone';
import {
  useChatInfo,
  useChats,
  useConversation,
  useCreateChat,
  useDeleteChat,
  useEditChat,
  useStopAnswer,
} from '../api/chats-api';
import { useSendQuery } from '../api/use-send-query';
import type { QueryBody } from '../api/send-query';
import { modelLabel, type Answerer } from '../model/answerer';
import { answerBeingWritten, withoutInFlight } from '../model/answer-status';
import { chatDefaults, granularityLabels, instrumentLabel } from '../model/chat-options';
import { ChatBreadcrumb } from './chat-breadcrumb';
import { ChatComposer } from './chat-composer';
import { ChatControls, type ChatSettings } from './chat-controls';
import { ChatList } from './chat-list';
import { ChatThread } from './chat-thread';
import { ChatTitleModal } from './chat-title-modal';
import { DeleteChatModal } from './delete-chat-modal';

type TitleDialog = { kind: 'create' } | { kind: 'edit'; chat: Chat };

/** The context a question is asked in, shown under the chat's title. */
function contextLine({ topic, mode, instrument, granularity }: ChatSettings): string {
  if (topic === 'candles') return `${instrumentLabel(instrument)} · ${granularityLabels[granularity]} candles`;
  return `${topic === 'trading' ? 'Trades' : 'Accounts'} · ${mode === 'live' ? 'live' : 'demo'} account`;
}

/** The question with the browser's zone, so that 'today' and 'last week' mean the trader's own calendar days. */
function queryBody(settings: ChatSettings, chatId: string, query: string): QueryBody {
  const timeZone = browserTimeZone();
  const zone = timeZone ? { timeZone } : {};
  return settings.topic === 'candles'
    ? { query, chatId, instrument: settings.instrument, granularity: settings.granularity, ...zone }
    : { query, chatId, mode: settings.mode, ...zone };
}

/** `/chat/ai_chat` (docs/PRODUCT.md, AI chat and Chat flow). */
export function ChatPage() {
  const info = useChatInfo();
  const platform = info.data?.data.default_ai_platfrom ?? 'openai';
  const answerer: Answerer = {
    platform,
    configured: info.data ? platform !== 'gemini' && info.data.providers[platform].configured : null,
  };
  const tradingPlatform = info.data?.data.default_trading_platfrom || 'OANDA';
  const base = aiBase(platform);

  const [settings, setSettings] = useState<ChatSettings>({ ...chatDefaults });
  const { topic } = settings;
  const [selectedId, setSelectedId] = useState<string | null>(null);
  const [input, setInput] = useState('');
  const [notSent, setNotSent] = useState<string | null>(null);
  const inputRef = useRef<HTMLTextAreaElement>(null);
  const threadCard = useRef<HTMLDivElement>(null);

  // The AI host depends on the default platform, so the chat calls wait for the info record (or its failure).
  const chatsQuery = useChats(base, topic, !info.isPending);
  const chats = chatsQuery.isError ? [] : (chatsQuery.data ?? []);
  // docs/PRODUCT.md, Chat flow: the first chat of a fetched list is selected unless the user's choice is still in it.
  const selected = chats.find((c) => c._id === selectedId) ?? chats[0] ?? null;
  const { send, pending, sending } = useSendQuery(base);
  // The exchange this page is streaming in the selected chat; the stored copies of its messages are left out.
  const live = pending && pending.chatId === selected?._id ? pending : null;
  // Without a stream of its own (a reload, a chat opened again), the page follows an answer still being written.
  const conversation = useConversation(base, selected?._id ?? null, live === null);
  const messages = withoutInFlight(conversation.isError ? [] : (conversation.data ?? []), live);
  const followed = live ? null : answerBeingWritten(messages);
  // What Stop ends: the answer streaming here (once the server has named it) or the one followed.
  const stoppable = live?.answerId ?? followed?._id ?? null;

  const createChat = useCreateChat(base);
  const editChat = useEditChat(base);
  const deleteChat = useDeleteChat(base);
  const stopAnswer = useStopAnswer(base);

  const [titleDialog, setTitleDialog] = useState<TitleDialog | null>(null);
  const [titleVisible, setTitleVisible] = useState(false);
  const [deleteTarget, setDeleteTarget] = useState<Chat | null>(null);
  const [deleteVisible, setDeleteVisible] = useState(false);

  function changeTopic(next: ChatTopic) {
    if (next === topic) return;
    setSettings((s) => ({ ...s, topic: next }));
    setSelectedId(null);
  }

  function selectChat(chat: Chat) {
    setSelectedId(chat._id);
    // Stacked on a phone, the thread is below the list: bring it into view.
    if (window.matchMedia?.('(max-width: 991.98px)').matches)
      threadCard.current?.scrollIntoView?.({ behavior: 'smooth' });
  }

  function openTitleDialog(dialog: TitleDialog) {
    createChat.reset();
    editChat.reset();
    setTitleDialog(dialog);
    setTitleVisible(true);
  }

  function submitTitle(title: string) {
    if (!titleDialog) return;
    if (titleDialog.kind === 'create') {
      createChat.mutate(
        { title, topic },
        {
          // docs/PRODUCT.md, Chat flow: the list is reloaded (newest first), then the new chat, its first entry, is
          // selected.
          onSuccess: (body) => {
            setSelectedId(body.data?._id ?? null);
            setTitleVisible(false);
          },
        },
      );
    } else {
      editChat.mutate({ chatId: titleDialog.chat._id, title }, { onSuccess: () => setTitleVisible(false) });
    }
  }

  function confirmDelete() {
    if (!deleteTarget) return;
    deleteChat.mutate(deleteTarget, {
      onSuccess: (_body, chat) => {
        // docs/PRODUCT.md, Chat flow: deleting the selected chat clears the selection and its messages.
        if (chat._id === selected?._id) setSelectedId(null);
        setDeleteVisible(false);
      },
    });
  }

  async function sendMessage() {
    const query = input.trim();
    if (!query || !selected || sending || followed) return;
    setInput('');
    setNotSent(null);
    const result = await send(topic, queryBody(settings, selected._id, query));
    // The server never took the message: give the text back so it can be sent again.
    if (result && !result.ok && !result.accepted) {
      setNotSent(result.message);
      setInput((current) => current || query);
    }
  }

  function pickPrompt(prompt: string) {
    setInput(prompt);
    setNotSent(null);
    inputRef.current?.focus();
  }

  const label = modelLabel(answerer, topic);
  const titleError = titleDialog?.kind === 'create' ? createChat.error : editChat.error;

  return (
    <>
      <ChatBreadcrumb tradingPlatform={tradingPlatform} answerer={answerer} />
      <CRow className="g-4 chat-layout">
        <CCol lg={4} xxl={3}>
          <CCard className="chat-panel">
            <CCardBody>
              <ChatControls
                settings={settings}
                onTopicChange={changeTopic}
                onChange={(patch) => setSettings((s) => ({ ...s, ...patch }))}
              />
              <ChatList
                chats={chats}
                selectedId={selected?._id ?? null}
                loading={info.isPending || chatsQuery.isFetching}
                onSelect={selectChat}
                onNew={() => openTitleDialog({ kind: 'create' })}
                onRename={(chat) => openTitleDialog({ kind: 'edit', chat })}
                onDelete={(chat) => {
                  deleteChat.reset();
                  setDeleteTarget(chat);
                  setDeleteVisible(true);
                }}
              />
            </CCardBody>
          </CCard>
        </CCol>
        <CCol lg={8} xxl={9}>
          <CCard className="chat-card" ref={threadCard}>
            <CCardHeader className="d-flex align-items-center gap-2">
              <div className="flex-grow-1 chat-heading">
                <div className="fw-semibold text-truncate">{selected?.title ?? 'No chat selected'}</div>
                <div className="small text-body-secondary">{contextLine(settings)}</div>
              </div>
              {label && (
                <CBadge color="secondary" shape="rounded-pill" className="chat-model" title="The model that answers">
                  {label}
                </CBadge>
              )}
            </CCardHeader>
            <CCardBody className="p-0 d-flex flex-column chat-card-body">
              <ChatThread
                topic={topic}
                messages={messages}
                pending={live}
                following={followed !== null}
                loading={info.isPending || chatsQuery.isLoading || conversation.isLoading}
                hasChat={selected !== null}
                onPickPrompt={pickPrompt}
              />
            </CCardBody>
            <CCardFooter className="chat-footer">
              {notSent && (
                <div className="small text-danger mb-2" role="alert">
                  Not sent: {notSent}
                </div>
              )}
              <ChatComposer
                value={input}
                onChange={(value) => {
                  setInput(value);
                  if (notSent) setNotSent(null);
                }}
                onSend={() => void sendMessage()}
                showSend={chats.length > 0}
                sending={sending || followed !== null}
                onStop={
                  stoppable && selected
                    ? () => stopAnswer.mutate({ chatId: selected._id, messageId: stoppable })
                    : undefined
                }
                stopping={stopAnswer.isPending}
                inputRef={inputRef}
              />
            </CCardFooter>
          </CCard>
        </CCol>
      </CRow>
      <ChatTitleModal
        visible={titleVisible}
        kind={titleDialog?.kind ?? 'create'}
        initialTitle={titleDialog?.kind === 'edit' ? titleDialog.chat.title : ''}
        pending={createChat.isPending || editChat.isPending}
        serverError={titleError?.message ?? null}
        onSubmit={submitTitle}
        onClose={() => setTitleVisible(false)}
      />
      <DeleteChatModal
        visible={deleteVisible}
        title={deleteTarget?.title ?? ''}
        pending={deleteChat.isPending}
        onConfirm={confirmDelete}
        onClose={() => setDeleteVisible(false)}
      />
    </>
  );
}
