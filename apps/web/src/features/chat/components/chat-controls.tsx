import { CFormSelect } from '@coreui/react';
import type { ChatTopic, Mode } from '@pipsense/contract';
import {
  granularityOptions,
  instrumentOptions,
  modes,
  topics,
  type Granularity,
  type Instrument,
} from '../model/chat-options';

export interface ChatSettings {
  topic: ChatTopic;
  mode: Mode;
  instrument: Instrument;
  granularity: Granularity;
}

interface ChatControlsProps {
  settings: ChatSettings;
  onTopicChange: (topic: ChatTopic) => void;
  onChange: (patch: Partial<Omit<ChatSettings, 'topic'>>) => void;
}

function RadioGroup<T extends string>({
  legend,
  name,
  values,
  value,
  onChange,
}: {
  legend: string;
  name: string;
  values: readonly T[];
  value: T;
  onChange: (value: T) => void;
}) {
  return (
    <fieldset className="mb-3">
      <legend className="chat-legend">{legend}</legend>
      {/* Plain inputs with CoreUI's classes: its CFormCheck re-creates the <input> on every render, which drops
          keyboard focus after each arrow key in a radio group. */}
      {values.map((v) => (
        <div key={v} className="form-check form-check-inline chat-radio">
          <input
            className="form-check-input"
            type="radio"
            name={name}
            id={`${name}-${v}`}
            value={v}
            checked={value === v}
            onChange={() => onChange(v)}
          />
          {/* The spec names the options in lower case; CSS capitalises them for display. */}
          <label className="form-check-label" htmlFor={`${name}-${v}`}>
            {v}
          </label>
        </div>
      ))}
    </fieldset>
  );
}

/** The left panel's query settings: topic, then the mode or the candle's instrument and granularity. */
export function ChatControls({ settings, onTopicChange, onChange }: ChatControlsProps) {
  return (
    <>
      <RadioGroup
        legend="Select Topic"
        name="chat-topic"
        values={topics}
        value={settings.topic}
        onChange={onTopicChange}
      />
      {settings.topic === 'candles' ? (
        <div className="chat-candle-settings mb-3">
          <label htmlFor="chat-instrument">Instrument</label>
          <CFormSelect
            id="chat-instrument"
            size="sm"
            options={instrumentOptions}
            value={settings.instrument}
            onChange={(e) => onChange({ instrument: e.target.value as Instrument })}
          />
          <label htmlFor="chat-granularity">Granularity</label>
          <CFormSelect
            id="chat-granularity"
            size="sm"
            options={granularityOptions}
            value={settings.granularity}
            onChange={(e) => onChange({ granularity: e.target.value as Granularity })}
          />
        </div>
      ) : (
        <RadioGroup
          legend="Select Mode"
          name="chat-mode"
          values={modes}
          value={settings.mode}
          onChange={(mode) => onChange({ mode })}
        />
      )}
    </>
  );
}
