import type { ReactNode } from 'react';

interface FaqEntry {
  question: string;
  answer: ReactNode;
}

/**
 * The ten FAQ topics of docs/PRODUCT.md, FAQ, answered with what PipSense actually does: where the spec's wording
 * describes something PipSense does not do (a vector index, role-based database access), the answer says what is true
 * instead.
 */
export const faqEntries: readonly FaqEntry[] = [
  {
    question: 'What is PipSense?',
    answer: (
      <p>
        PipSense is a web app for forex and CFD traders. You connect your OANDA account, and PipSense analyses your
        broker account and market data to give you insights, performance summaries and recommendations: an analytics
        overview, your synced trades and accounts, and an AI assistant that answers questions about your trades,
        accounts and price candles.
      </p>
    ),
  },
  {
    question: 'How do I sign up and log in?',
    answer: (
      <>
        <p>
          On the sign-in page choose <strong>Create an account</strong>, enter a username, your email address and a
          password (8–128 characters), confirm the password and click <strong>Sign Up</strong>.
        </p>
        <p>
          PipSense then emails you a link to confirm your address (valid for 7 days). You can sign in straight away with
          your username (not your email) and password; until you open the link, a banner asks you to confirm and can
          send the link again. A session lasts 24 hours unless your server is set up otherwise; after that you sign in
          again.
        </p>
        <p>
          Forgot your password? Choose <strong>Forgot your password?</strong> on the sign-in page and enter your email:
          PipSense emails a link to choose a new one, which works once, for 1 hour. Setting it signs out every session
          of your account. You can also end every session yourself with <strong>Log out everywhere</strong> in the
          profile menu.
        </p>
      </>
    ),
  },
  {
    question: 'How do I add my OANDA API token and account ID?',
    answer: (
      <>
        <p>
          After signing in, open <strong>Settings → Trading Platforms</strong> and click the <strong>OANDA</strong>{' '}
          card. Enter your Access Token and Account ID, choose the Mode (Demo or Live) and click{' '}
          <strong>Save Configuration</strong>. Saving makes OANDA your default trading platform, and its card then shows
          Active.
        </p>
        <p>
          The token is required. You may leave the Account ID empty if you choose a mode: PipSense then uses every
          account the token can see. Once saved, the token is only ever shown masked (for example ••••4f2a); to replace
          it, paste a new one.
        </p>
      </>
    ),
  },
  {
    question: 'Where do I find my OANDA API token and account ID?',
    answer: (
      <p>
        Sign in to OANDA and open <strong>My Account → Manage API Access</strong> to generate your personal access token
        (you can revoke it there too). Practice (demo) and live accounts have separate tokens. Your account ID is shown
        in the OANDA hub and has the form 101-xxx-xxxxxxx-xxx.
      </p>
    ),
  },
  {
    question: 'How do I switch between demo and live?',
    answer: (
      <>
        <p>
          On the AI chat screen (<strong>AI Chat → Ask AI</strong>), <strong>Select Mode</strong> (demo or live) sets
          which kind of account the assistant looks at for the trading and accounts topics.
        </p>
        <p>
          The Mode in your OANDA configuration (<strong>Settings → Trading Platforms → OANDA</strong>) says whether your
          saved token belongs to a demo (practice) or a live account: change it there when you switch tokens.
        </p>
      </>
    ),
  },
  {
    question: 'Can I choose how many results I get (topN)?',
    answer: (
      <p>
        Yes, in your question: there is no separate topN setting. Ask the assistant in AI Chat for “top 3” or “top 10”,
        for example “What were my top 3 winners today?”, and it returns that many.
      </p>
    ),
  },
  {
    question: 'Which instruments and timeframes are supported?',
    answer: (
      <p>
        Price candles in AI Chat (the candles topic) cover the major pairs USD/JPY, EUR/USD and GBP/USD, at timeframes
        from one minute to one day: 1 Minute (M1), 5 Minutes (M5), 15 Minutes (M15), 1 Hour (H1) and 1 Day (D). Your
        trades and accounts are synced from OANDA whatever instruments you trade.
      </p>
    ),
  },
  {
    question: 'How is my data kept secure?',
    answer: (
      <ul className="mb-0 ps-3">
        <li>
          Your OANDA access token is encrypted at rest with AES-256-GCM and never sent back to your browser in full,
          only masked.
        </li>
        <li>Passwords are stored only as argon2id hashes.</li>
        <li>
          Every request is checked against your signed session, and every query is limited to your own user: you see
          only your own data.
        </li>
        <li>Sign-in and registration attempts are rate-limited.</li>
        <li>
          PipSense itself serves plain HTTP. Encryption in transit (HTTPS/TLS) comes from the deployment, so whoever
          runs PipSense should put it behind TLS, for example a reverse proxy with a certificate.
        </li>
      </ul>
    ),
  },
  {
    question: 'What does “Vector search index not configured” mean?',
    answer: (
      <p>
        PipSense does not use a vector search index, so it never shows this error. If you see it, it comes from another
        tool, not from PipSense.
      </p>
    ),
  },
  {
    question: 'How do I get support?',
    answer: (
      <>
        <p>
          Click <strong>Feedback</strong> at the top of any page once signed in, write your message and click{' '}
          <strong>Send</strong>: it is saved, and emailed to the support address of your PipSense server when it has
          one, so the team can reply to your email address.
        </p>
        <p className="mb-0">
          You can also email the person or team who runs your PipSense server. When you report a problem, include the
          message PipSense showed and what you were doing at the time.
        </p>
      </>
    ),
  },
];
