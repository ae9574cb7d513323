import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { InfoRecord } from '@pipsense/contract';
import { describe, expect, it } from 'vitest';
import { failure, fakeApi } from '../../../test/fake-api';
import { infoRoutes, providersFixture, UPDATE_INFO } from '../../../test/info-fixtures';
import { findOpenDialog, renderWithProviders } from '../../../test/render';
import { AiPlatformsPage } from './ai-platforms-page';

const record: InfoRecord = {
  default_ai_platfrom: 'openai',
  default_trading_platfrom: 'OANDA',
  oanda: { accessToken: '••••4f2a', accountId: '101-001-1234567-001', mode: 'demo' },
};

async function open(name: string) {
  const user = userEvent.setup();
  await user.click(await screen.findByRole('button', { name: new RegExp(`^${name},`) }));
  return { user, dialog: await findOpenDialog() };
}

describe('AI Platform', () => {
  it('lists the five platforms with the default Active', async () => {
    fakeApi(infoRoutes(record));
    renderWithProviders(<AiPlatformsPage />);
    expect(await screen.findByRole('button', { name: /^OpenAI, Active/ })).toBeVisible();
    for (const name of ['VertexAI', 'Gemini', 'ClaudeAI', 'GrokAI'])
      expect(screen.getByRole('button', { name: new RegExp(`^${name}, Inactive`) })).toBeVisible();
  });

  it("tells the server's truth about a provider in its modal", async () => {
    fakeApi(infoRoutes(record));
    renderWithProviders(<AiPlatformsPage />);
    const { dialog } = await open('VertexAI');
    expect(within(dialog).getByText('Not configured')).toBeVisible();
    expect(within(dialog).getByText(providersFixture.vertexai.detail)).toBeVisible();
    expect(within(dialog).getByRole('button', { name: 'Make Default' })).toBeEnabled();
  });

  it('shows OpenAI as configured and already the default', async () => {
    fakeApi(infoRoutes(record));
    renderWithProviders(<AiPlatformsPage />);
    const { dialog } = await open('OpenAI');
    expect(within(dialog).getByText('Configured')).toBeVisible();
    expect(within(dialog).getByText(providersFixture.openai.detail)).toBeVisible();
    expect(within(dialog).getByRole('button', { name: 'Make Default' })).toBeDisabled();
  });

  it('Make Default saves the whole info record with the new platform', async () => {
    const server = fakeApi(infoRoutes(record));
    renderWithProviders(<AiPlatformsPage />);
    const { user, dialog } = await open('VertexAI');
    await user.click(within(dialog).getByRole('button', { name: 'Make Default' }));
    expect(await screen.findByText('Configuration updated successfully')).toBeVisible();
    expect(server.to(UPDATE_INFO, 'POST').map((c) => c.body)).toEqual([{ ...record, default_ai_platfrom: 'vertexai' }]);
    expect(await screen.findByRole('button', { name: /^VertexAI, Active/ })).toBeVisible();
    expect(screen.getByRole('button', { name: /^OpenAI, Inactive/ })).toBeVisible();
  });

  it("shows the server's message when Make Default fails", async () => {
    fakeApi({
      ...infoRoutes(record),
      [`POST ${UPDATE_INFO}`]: () => failure(400, 'default_ai_platfrom must be openai, vertexai or gemini.'),
    });
    renderWithProviders(<AiPlatformsPage />);
    const { user, dialog } = await open('VertexAI');
    await user.click(within(dialog).getByRole('button', { name: 'Make Default' }));
    expect(await screen.findByText('default_ai_platfrom must be openai, vertexai or gemini.')).toBeVisible();
  });

  it.each(['Gemini', 'ClaudeAI', 'GrokAI'])('%s is not available yet and has no action', async (name) => {
    fakeApi(infoRoutes(record));
    renderWithProviders(<AiPlatformsPage />);
    const { dialog } = await open(name);
    expect(within(dialog).getByText('Not available yet')).toBeVisible();
    expect(within(dialog).queryByRole('button', { name: 'Make Default' })).toBeNull();
    expect(within(dialog).getByText('Close', { selector: '.modal-footer button' })).toBeVisible();
  });
});
