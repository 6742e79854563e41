import { describe, expect, it, vi } from 'vitest';
import { errorText, showFailure, wasShown } from './failure.ts';
import { ApiError } from './request.ts';

const refused = new ApiError('envelope', 'Name taken', { code: 40900, status: 409 });
const loggedOut = new ApiError('envelope', 'Token expired', { code: 50014, status: 401 });
const offline = new ApiError('network', 'Network Error');

describe('showing a failed call once', () => {
  it('knows what the request layer has shown itself: the logout dialog and network messages', () => {
    expect(wasShown(refused)).toBe(false);
    expect(wasShown(loggedOut)).toBe(true);
    expect(wasShown(offline)).toBe(true);
    expect(wasShown(new Error('boom'))).toBe(false);
    expect(wasShown('boom')).toBe(false);
  });

  it('shows the words of a failure nobody has shown yet, and nothing for one already shown', () => {
    const show = vi.fn();
    showFailure(refused, show);
    showFailure(loggedOut, show);
    showFailure(offline, show);
    showFailure(new Error('boom'), show);
    expect(show.mock.calls).toEqual([['Name taken'], ['boom']]);
  });

  it('falls back to the given words when a failure has none, else to its text form', () => {
    expect(errorText(new Error(''), 'cannot create password')).toBe('cannot create password');
    expect(errorText(new Error('Expired link'), 'cannot create password')).toBe('Expired link');
    expect(errorText('plain')).toBe('plain');
    const show = vi.fn();
    showFailure(new ApiError('envelope', '', { code: 50000, status: 500 }), show, 'cannot ask for reset password.');
    expect(show).toHaveBeenCalledWith('cannot ask for reset password.');
  });
});
