import { useRef, useState } from 'react';
import { CButton } from '@coreui/react';
import CIcon from '@coreui/icons-react';
import { cilPencil } from '@coreui/icons';
import type { RulePreset, StoredRuleSet } from '@pipsense/contract';
import { describeRule, setBoundary } from '../model/rule-words';
import { RuleEditor } from './rule-editor';

/**
 * A set's rules in plain words, the preset's assumptions and source under them, and 'Edit rules' opening the editor
 * in their place (docs/PRODUCT.md, My Rules).
 */
export function RuleList({
  ruleSet,
  preset,
  currency,
}: {
  ruleSet: StoredRuleSet;
  preset: RulePreset | undefined;
  currency: string;
}) {
  const [editing, setEditing] = useState(false);
  const headingId = `rule-list-${ruleSet.id}`;
  const boundary = setBoundary(ruleSet.rules);
  // Back from the editor, the focus returns to 'Edit rules'.
  const editButton = useRef<HTMLButtonElement>(null);
  const closeEditor = () => {
    setEditing(false);
    requestAnimationFrame(() => editButton.current?.focus());
  };
  return (
    <section className="rule-list" aria-labelledby={headingId}>
      <div className="rule-list-head">
        <h3 id={headingId} className="h6 mb-0">
          Rules
        </h3>
        {!editing && (
          <CButton
            ref={editButton}
            size="sm"
            color="primary"
            variant="outline"
            aria-label={`Edit rules of ${ruleSet.name}`}
            onClick={() => setEditing(true)}
          >
            <CIcon icon={cilPencil} className="me-1" aria-hidden="true" />
            Edit rules
          </CButton>
        )}
      </div>
      {editing ? (
        <RuleEditor ruleSet={ruleSet} onDone={closeEditor} />
      ) : ruleSet.rules.length === 0 ? (
        <p className="text-body-secondary small mb-0">No rules yet: 'Edit rules' adds them.</p>
      ) : (
        <ul className="rule-sentences small mb-0" aria-label={`Rules of ${ruleSet.name}`}>
          {ruleSet.rules.map((rule) => (
            <li key={rule.kind}>{describeRule(rule, { currency, boundary })}</li>
          ))}
        </ul>
      )}
      {preset && (
        <div className="rule-assumptions small text-body-secondary">
          {preset.assumptions.length > 0 && (
            <>
              <div>Assumptions:</div>
              <ul className="mb-1 ps-3">
                {preset.assumptions.map((assumption) => (
                  <li key={assumption}>{assumption}</li>
                ))}
              </ul>
            </>
          )}
          <div>Source: {preset.source}</div>
        </div>
      )}
    </section>
  );
}
