// @vitest-environment happy-dom
import { MantineProvider, TextInput } from '@mantine/core';
import { act, cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { useState } from 'react';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { setupI18n } from '../lib/i18n.ts';
import { FormCard } from './form-card.tsx';

/** A form whose check (here, or the server's after a while) finds the second field wrong. */
const Form = ({ server }: { server: boolean }) => {
  const [error, setError] = useState<string | undefined>();
  const [submitting, setSubmitting] = useState(false);
  const submit = () => {
    if (!server) return setError('Vnos je obvezen');
    setSubmitting(true);
    setTimeout(() => {
      setError('Naziv že obstaja');
      setSubmitting(false);
    }, 10);
  };
  return (
    <FormCard title="Enota" onSubmit={submit} submitting={submitting} submitLabel="Shrani">
      <TextInput label="Šifra" defaultValue="1" />
      <TextInput label="Naziv" error={error} />
    </FormCard>
  );
};

const renderForm = (server: boolean) => {
  const router = createMemoryRouter([{ path: '*', element: <Form server={server} /> }]);
  return render(
    <MantineProvider>
      <RouterProvider router={router} />
    </MantineProvider>,
  );
};

beforeAll(() => {
  setupI18n();
});
afterEach(cleanup);

describe('FormCard after a submit (issue 33 item 5)', () => {
  it('focuses the first field the check found wrong, so its message is read', async () => {
    renderForm(false);
    await act(async () => {
      fireEvent.click(screen.getByRole('button', { name: 'Shrani' }));
    });
    await waitFor(() => expect(document.activeElement).toBe(screen.getByRole('textbox', { name: 'Naziv' })));
  });

  it('does so when the server answers with a field error too', async () => {
    renderForm(true);
    await act(async () => {
      fireEvent.click(screen.getByRole('button', { name: 'Shrani' }));
    });
    await waitFor(() => expect(document.activeElement).toBe(screen.getByRole('textbox', { name: 'Naziv' })));
  });
});
