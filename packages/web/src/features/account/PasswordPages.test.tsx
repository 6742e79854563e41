import '../../../test/dom.ts';
import { fireEvent, screen, waitFor } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { envelope, fakeApi, ok } from '../../../test/fake-api.ts';
import { renderApp } from '../../../test/render-app.tsx';

const LINK = '/create-password?t=tok-123&un=ada.lovelace';

async function typePasswords(password: string, confirm: string) {
  fireEvent.change(await screen.findByLabelText('Password'), { target: { value: password } });
  fireEvent.change(screen.getByLabelText('Confirm password'), { target: { value: confirm } });
  fireEvent.click(screen.getByRole('button', { name: 'Validate' }));
}

describe('create password', () => {
  it.each([
    ['short1!', 'The password must contain at least one lowercase, one uppercase, one digit and a special character'],
    ['nodigits!!', 'The password must contain at least one lowercase, one uppercase, one digit and a special character'],
    ['no special 1', 'The password must contain at least one lowercase, one uppercase, one digit and a special character'],
    ['xAda.Lovelace9!', 'The password should not contain the username'],
    ['Lovelace-1999', 'The password should not contain a part of the username'],
  ])(
    'refuses %s in one message: the failed-form words, the field and the spec words, without calling the server',
    async (password, words) => {
      const server = fakeApi({});
      renderApp(LINK);
      await typePasswords(password, password);
      const alert = await screen.findByRole('alert');
      expect(alert.textContent).toBe(`Something went wrong. Please check the password you typed.Password: ${words}`);
      // Named once: the words appear nowhere else on the page, and no toast repeats them.
      expect(screen.getAllByText(words, { exact: false })).toHaveLength(1);
      expect(screen.getAllByText('Something went wrong. Please check the password you typed.')).toHaveLength(1);
      expect(screen.getByLabelText('Password').getAttribute('aria-invalid')).toBe('true');
      expect(screen.getByLabelText('Password').getAttribute('aria-describedby')).toBe(alert.id);
      expect(screen.getByLabelText('Confirm password').getAttribute('aria-invalid')).toBeNull();
      expect(server.calls).toEqual([]);
    },
  );

  it("refuses a confirmation that differs: 'The passwords don't match !', once, however often Validate is pressed", async () => {
    const server = fakeApi({});
    renderApp(LINK);
    await typePasswords('Str0ng#Secret', 'Str0ng#Secrets');
    fireEvent.click(screen.getByRole('button', { name: 'Validate' }));
    fireEvent.click(screen.getByRole('button', { name: 'Validate' }));
    const alert = await screen.findByRole('alert');
    expect(alert.textContent).toContain("Confirm password: The passwords don't match !");
    expect(alert.textContent).not.toContain('Password: The');
    await waitFor(() => expect(screen.getAllByText("Confirm password: The passwords don't match !")).toHaveLength(1));
    expect(screen.getAllByRole('alert')).toHaveLength(1);
    expect(server.calls).toEqual([]);
  });

  it('names the field left empty, and lets the alert go once the form passes', async () => {
    fakeApi({ 'POST /users/create-password': () => ok(null) });
    const app = renderApp(LINK);
    await typePasswords('', '');
    const alert = await screen.findByRole('alert');
    expect(alert.textContent).toContain('Password: Please input the password');
    expect(alert.textContent).toContain('Confirm password: Please input the password again');
    await typePasswords('Str0ng#Secret', 'Str0ng#Secret');
    await waitFor(() => expect(app.where()).toBe('/login'));
  });

  it('sends the password with the token of the link, says it is set and goes to the sign-in', async () => {
    const server = fakeApi({ 'POST /users/create-password': () => ok(null) });
    const app = renderApp(LINK);
    await typePasswords('Str0ng#Secret', 'Str0ng#Secret');
    await screen.findByText('The password has been successfully set.');
    await waitFor(() => expect(app.where()).toBe('/login'));
    expect(server.calls[0]?.body).toEqual({ password: 'Str0ng#Secret', token: 'tok-123' });
    expect(server.calls[0]?.headers['x-token']).toBeUndefined();
  });

  it("shows the server's refusal of a used link and stays", async () => {
    fakeApi({ 'POST /users/create-password': () => envelope(40000, 'invalid or expired token.', null, 400) });
    const app = renderApp(LINK);
    await typePasswords('Str0ng#Secret', 'Str0ng#Secret');
    expect((await screen.findByRole('alert')).textContent).toBe('invalid or expired token.');
    expect(screen.getAllByText('invalid or expired token.')).toHaveLength(1);
    expect(app.where()).toBe(LINK);
  });
});

describe('forgotten password', () => {
  it('requires an email, with the failed-form message', async () => {
    const server = fakeApi({});
    renderApp('/forgotten');
    fireEvent.click(await screen.findByRole('button', { name: 'Validate' }));
    await screen.findByText('Please input email');
    await screen.findByText('Something went wrong. Please check the email you typed.');
    expect(server.calls).toEqual([]);
    expect(screen.getByRole('link', { name: 'Cancel' }).getAttribute('href')).toBe('/login');
  });

  it('asks for a link and shows the same words whatever the address', async () => {
    const server = fakeApi({ 'POST /users/forgotten': () => ok(null) });
    renderApp('/forgotten');
    fireEvent.change(await screen.findByLabelText('Email'), { target: { value: ' ada@example.test ' } });
    fireEvent.click(screen.getByRole('button', { name: 'Validate' }));
    await screen.findByText(
      'If your email address exists in our database, you will receive a password recovery link at your email address in a few minutes.',
    );
    expect(server.calls[0]?.body).toEqual({ email: 'ada@example.test' });
    expect(screen.getByRole('link', { name: 'Back to login' }).getAttribute('href')).toBe('/login');
    expect(screen.queryByLabelText('Email')).toBeNull();
  });

  it("shows the server's limit message and keeps the form", async () => {
    fakeApi({
      'POST /users/forgotten': () =>
        envelope(42900, 'Too many password recovery requests. Please try again in 60 minutes.', null, 429),
    });
    renderApp('/forgotten');
    fireEvent.change(await screen.findByLabelText('Email'), { target: { value: 'ada@example.test' } });
    fireEvent.click(screen.getByRole('button', { name: 'Validate' }));
    await screen.findByText('Too many password recovery requests. Please try again in 60 minutes.');
    expect(screen.getByLabelText('Email')).toBeTruthy();
  });
});
