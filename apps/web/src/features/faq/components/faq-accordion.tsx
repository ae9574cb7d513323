import { CAccordion, CAccordionBody, CAccordionHeader, CAccordionItem } from '@coreui/react';
import { faqEntries } from '../model/faq-entries';

/** The FAQ both pages show: the first question open, one open at a time. */
export function FaqAccordion() {
  return (
    <CAccordion activeItemKey={0} className="faq-accordion">
      {faqEntries.map((entry, index) => (
        <CAccordionItem key={entry.question} itemKey={index}>
          <CAccordionHeader role="heading" aria-level={3}>
            {entry.question}
          </CAccordionHeader>
          <CAccordionBody>{entry.answer}</CAccordionBody>
        </CAccordionItem>
      ))}
    </CAccordion>
  );
}
