import { CButton, CFormInput } from '@coreui/react';
import CIcon from '@coreui/icons-react';
import { cilArrowBottom, cilArrowTop, cilPlus, cilTrash } from '@coreui/icons';
import { PLAYBOOK_LIMITS } from '@pipsense/contract';
import { moved, newGroup, newRule, type GroupDraft, type RuleDraft } from '../model/playbook-form';

function MoveButtons({
  what,
  index,
  count,
  onMove,
  onRemove,
}: {
  what: string;
  index: number;
  count: number;
  onMove: (delta: -1 | 1) => void;
  onRemove: () => void;
}) {
  return (
    <span className="pb-row-actions">
      <CButton
        size="sm"
        color="secondary"
        variant="ghost"
        aria-label={`Move ${what} up`}
        disabled={index === 0}
        onClick={() => onMove(-1)}
      >
        <CIcon icon={cilArrowTop} />
      </CButton>
      <CButton
        size="sm"
        color="secondary"
        variant="ghost"
        aria-label={`Move ${what} down`}
        disabled={index === count - 1}
        onClick={() => onMove(1)}
      >
        <CIcon icon={cilArrowBottom} />
      </CButton>
      <CButton size="sm" color="danger" variant="ghost" aria-label={`Remove ${what}`} onClick={onRemove}>
        <CIcon icon={cilTrash} />
      </CButton>
    </span>
  );
}

function GroupEditor({
  group,
  index,
  count,
  onChange,
  onMove,
  onRemove,
}: {
  group: GroupDraft;
  index: number;
  count: number;
  onChange: (next: GroupDraft) => void;
  onMove: (delta: -1 | 1) => void;
  onRemove: () => void;
}) {
  const label = group.name.trim() || `group ${index + 1}`;
  const setRules = (rules: RuleDraft[]) => onChange({ ...group, rules });
  return (
    <li className="pb-group" aria-label={`Rule group ${label}`}>
      <div className="pb-group-head">
        <CFormInput
          size="sm"
          className="pb-group-name"
          value={group.name}
          maxLength={PLAYBOOK_LIMITS.groupName}
          placeholder="Group name, e.g. Entry"
          aria-label={`Name of ${label}`}
          onChange={(e) => onChange({ ...group, name: e.target.value })}
        />
        <MoveButtons what={`group ${label}`} index={index} count={count} onMove={onMove} onRemove={onRemove} />
      </div>
      <ol className="pb-rules">
        {group.rules.map((rule, r) => (
          <li key={rule.key} className="pb-rule">
            <CFormInput
              size="sm"
              value={rule.text}
              maxLength={PLAYBOOK_LIMITS.ruleText}
              placeholder="A rule you can tick, e.g. Price at a higher-timeframe level"
              aria-label={`Rule ${r + 1} of ${label}`}
              onChange={(e) =>
                setRules(group.rules.map((x) => (x.key === rule.key ? { ...x, text: e.target.value } : x)))
              }
            />
            <MoveButtons
              what={`rule ${r + 1} of ${label}`}
              index={r}
              count={group.rules.length}
              onMove={(delta) => setRules(moved(group.rules, r, delta))}
              onRemove={() => setRules(group.rules.filter((x) => x.key !== rule.key))}
            />
          </li>
        ))}
      </ol>
      <CButton
        size="sm"
        color="secondary"
        variant="ghost"
        disabled={group.rules.length >= PLAYBOOK_LIMITS.rulesPerGroup}
        onClick={() => setRules([...group.rules, newRule()])}
      >
        <CIcon icon={cilPlus} className="me-1" aria-hidden="true" />
        Add rule to {label}
      </CButton>
    </li>
  );
}

/**
 * The playbook's checklist: groups of rules, each renamed, moved or removed in place. A removed rule that was saved
 * is retired by the server (its ticks stay in the history of reviewed trades).
 */
export function RuleGroupsEditor({
  groups,
  onChange,
}: {
  groups: GroupDraft[];
  onChange: (next: GroupDraft[]) => void;
}) {
  return (
    <div className="pb-groups-editor">
      <ul className="pb-groups list-unstyled">
        {groups.map((group, index) => (
          <GroupEditor
            key={group.key}
            group={group}
            index={index}
            count={groups.length}
            onChange={(next) => onChange(groups.map((g) => (g.key === group.key ? next : g)))}
            onMove={(delta) => onChange(moved(groups, index, delta))}
            onRemove={() => onChange(groups.filter((g) => g.key !== group.key))}
          />
        ))}
      </ul>
      <CButton
        size="sm"
        color="secondary"
        variant="outline"
        disabled={groups.length >= PLAYBOOK_LIMITS.groups}
        onClick={() => onChange([...groups, newGroup()])}
      >
        <CIcon icon={cilPlus} className="me-1" aria-hidden="true" />
        Add group
      </CButton>
    </div>
  );
}
