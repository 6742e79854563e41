// The web shell as people meet it: where the guard sends them and what the sidebar offers.
import { describe, expect, it } from 'vitest';
import { signIn, specBrowser, type TestPage, topMenu, waitForPage, where } from '../support/browser.ts';
import { E2E_PASSWORD, USERS } from '../support/users.ts';

const spec = specBrowser();
let t: TestPage | undefined;

const open = async () => {
  t = await spec.open();
  return t.page;
};

describe('a visitor who is not signed in', () => {
  it('opening / lands on /login', async () => {
    const page = await open();
    await page.goto('/');
    await page.getByRole('button', { name: 'Login', exact: true }).waitFor();
    expect(where(page)).toBe('/login');
    expect(await page.title()).toBe('GDB-IMPORTER');
  });

  it("an unknown path lands on /404 'Wrong page...'", async () => {
    const page = await open();
    await page.goto('/this/page/does-not-exist');
    await page.getByText('Wrong page...').waitFor();
    expect(where(page)).toBe('/404');
  });

  it('a protected page asks for a sign-in first, then opens', async () => {
    const page = await open();
    await page.goto('/manage/sdk');
    await page.getByRole('button', { name: 'Login', exact: true }).waitFor();
    expect(where(page)).toBe('/login?redirect=/manage/sdk');
    await page.getByPlaceholder('firstname.lastname').fill(USERS.superAdmin.userName);
    await page.getByLabel('Password').fill(E2E_PASSWORD);
    await page.getByRole('button', { name: 'Login', exact: true }).click();
    await waitForPage(page, '/manage/sdk');
    expect(await page.title()).toBe('Sdk - GDB-IMPORTER');
  });
});

describe('the sidebar', () => {
  it('shows a super-admin every menu entry whose page is built, and none opens an empty page', async () => {
    const page = await open();
    await signIn(page, USERS.superAdmin);
    await waitForPage(page, '/import/upload');
    await page.getByText('Sam Superadmin (super-admin)').waitFor();
    expect(await topMenu(page)).toEqual(['Update data', 'Export', 'Consult', 'Manage', 'Testing View', 'Activity']);
    const sidebar = page.getByRole('complementary', { name: 'Sidebar' });
    await sidebar.getByText('Consult', { exact: true }).click();
    await sidebar.getByText('Manage', { exact: true }).click();
    const links = await sidebar
      .getByRole('link')
      .evaluateAll((as) => as.map((a) => `${a.textContent?.trim()} ${a.getAttribute('href')}`));
    expect(links).toEqual([
      'GDB Importer /',
      'Upload new file /import/upload',
      'Manage jobs /import/jobs',
      'Export /export/index',
      'Upload /consult/upload',
      'Import /consult/import',
      'Pipelines /manage/pipeline',
      'Data Models /manage/schemas',
      'Components /manage/components',
      'Updates /manage/update-lock-pipeline',
      'Users /manage/users',
      'Manage endpoints /manage/endpoints',
      'Manage listeners /manage/listeners',
      'Sdk /manage/sdk',
      'Documentation /manage/documentation',
      'Testing View /testing/index',
      'Activity /activity/index',
    ]);
    // No entry opens an empty page: each leads to a built screen, not the upcoming-feature view.
    for (const href of links.slice(1).map((l) => l.split(' ').at(-1) ?? '')) {
      await sidebar.locator(`a[href="${href}"]`).click();
      await waitForPage(page, href);
      expect(await page.locator('.gdb-upcoming').count(), href).toBe(0);
    }
  });

  it('shows a user only Update data, Export, Consult (their logbook) and Testing View', async () => {
    const page = await open();
    await signIn(page, USERS.user);
    await waitForPage(page, '/import/upload');
    await page.getByText('Uma User (user)').waitFor();
    expect(await topMenu(page)).toEqual(['Update data', 'Export', 'Consult', 'Testing View']);
  });

  it('shows a parent with one visible child as one link to that child', async () => {
    const page = await open();
    await signIn(page, USERS.admin);
    await waitForPage(page, '/manage/users');
    expect(await topMenu(page)).toEqual(['Manage', 'Testing View', 'Activity']);
    const sidebar = page.getByRole('complementary', { name: 'Sidebar' });
    expect(await sidebar.locator('.ant-menu-submenu').count()).toBe(0);
    const manage = sidebar.getByRole('link', { name: 'Manage' });
    expect(await manage.getAttribute('href')).toBe('/manage/users');
    await sidebar.getByRole('link', { name: 'Testing View' }).click();
    await waitForPage(page, '/testing/index');
    await manage.click();
    await waitForPage(page, '/manage/users');
  });
});

describe('the guard', () => {
  it('sends a manager who types /manage/users to /unauthorized', async () => {
    const page = await open();
    await signIn(page, USERS.manager);
    await waitForPage(page, '/import/upload');
    await page.goto('/manage/users');
    await page.getByRole('heading', { name: 'Unauthorized' }).waitFor();
    expect(where(page)).toBe('/unauthorized/index');
  });

  it('Log Out goes back to /login with a redirect to the page, and signs out for real', async () => {
    const page = await open();
    await signIn(page, USERS.user);
    await page.goto('/export/index');
    await page.getByText('Uma User (user)').click();
    await page.getByText('Log Out').click();
    await page.getByRole('button', { name: 'Login', exact: true }).waitFor();
    expect(where(page)).toBe('/login?redirect=/export/index');
    await page.goto('/testing/index');
    await page.getByRole('button', { name: 'Login', exact: true }).waitFor();
    expect(where(page)).toBe('/login?redirect=/testing/index');
  });
});
