import { render } from '@testing-library/react';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { MemoryRouter } from 'react-router';
import { ToastContainer } from 'react-toastify';
import { ChatPage } from '../components/chat-page';

/** The chat screen with the app's providers, a fresh query cache and a toast container. */
export function renderChatPage() {
  const client = new QueryClient({
    defaultOptions: { queries: { retry: false, refetchOnWindowFocus: false, staleTime: 30_000 } },
  });
  return render(
    <QueryClientProvider client={client}>
      <MemoryRouter initialEntries={['/chat/ai_chat']}>
        <ChatPage />
      </MemoryRouter>
      <ToastContainer />
    </QueryClientProvider>,
  );
}
