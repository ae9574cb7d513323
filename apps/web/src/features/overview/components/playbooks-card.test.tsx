import { describe, expect, it } from 'vitest';
import { screen, waitFor, within } from '@testing-library/react';
import { fakeApi, ok } from '../../../test/fake-api';
import { renderWithProviders } from '../../../test/render';
import {
  GET_PLAYBOOKS,
  GET_REPORT,
  playbook,
  playbooksBody,
  report,
  reportBody,
} from '../../../test/playbook-fixtures';
import { PlaybooksCard } from './playbooks-card';

describe("The Overview's Playbooks card", () => {
  it("shows each playbook's trades, follow rate, net P/L and followed against broke, in the Overview's range", async () => {
    const api = fakeApi({
      [GET_PLAYBOOKS]: () => ok(playbooksBody([playbook()])),
      [GET_REPORT]: () => ok(reportBody(report())),
    });
    renderWithProviders(<PlaybooksCard filters={{ from: '2026-11-01T00:00:00.000Z', accountId: 'A' }} />);
    const card = await screen.findByRole('region', { name: 'Playbooks' });
    const row = within(card).getByRole('listitem', { name: 'London breakout' });
    await waitFor(() => expect(row).toHaveTextContent('Follow rate60 %'));
    const figure = (label: string) => within(row).getByText(label).nextElementSibling!;
    expect(figure('Trades')).toHaveTextContent('5');
    expect(figure('Net P/L')).toHaveTextContent(/^50\.00/);
    expect(figure('Followed all')).toHaveTextContent(/120\.00/);
    expect(figure('Broke some')).toHaveTextContent(/-70\.00/);
    expect(within(row).getByRole('link', { name: 'London breakout' })).toHaveAttribute(
      'href',
      '/journal/playbooks?playbook=pb-1',
    );
    const call = api.to('/api/v1/playbook/get_report/pb-1')[0]!;
    expect(call.search.get('from')).toBe('2026-11-01T00:00:00.000Z');
    expect(call.search.get('accountId')).toBe('A');
  });

  it('shows nothing without a playbook', async () => {
    const api = fakeApi({ [GET_PLAYBOOKS]: () => ok(playbooksBody([])) });
    renderWithProviders(<PlaybooksCard filters={{}} />);
    await waitFor(() => expect(api.to('/api/v1/playbook/get_playbooks')).toHaveLength(1));
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(screen.queryByRole('region', { name: 'Playbooks' })).toBeNull();
    expect(api.to(/get_report/)).toHaveLength(0);
  });
});
