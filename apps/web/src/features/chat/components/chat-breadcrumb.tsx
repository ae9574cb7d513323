import { CBreadcrumb, CBreadcrumbItem } from '@coreui/react';
import { usingLabel, type Answerer } from '../model/answerer';

interface ChatBreadcrumbProps {
  tradingPlatform: string;
  answerer: Answerer;
}

/** docs/PRODUCT.md, AI chat: which broker the questions query and which AI answers them. */
export function ChatBreadcrumb({ tradingPlatform, answerer }: ChatBreadcrumbProps) {
  return (
    <CBreadcrumb className="chat-breadcrumb mb-3">
      <CBreadcrumbItem>Querying: {tradingPlatform}</CBreadcrumbItem>
      <CBreadcrumbItem active>{usingLabel(answerer)}</CBreadcrumbItem>
    </CBreadcrumb>
  );
}
