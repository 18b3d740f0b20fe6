import { expect, test } from '@playwright/test';
import { takePictures } from './lib/pictures';
import { ApiDocs } from './pages/ApiDocs';

test('the API reference opens from the server’s own files under its CSP, without signing in', async ({
  page,
}) => {
  const docs = new ApiDocs(page);
  await docs.open();
  await expect(docs.title).toBeVisible();
  expect(await docs.operations.count()).toBeGreaterThan(40);
  const item = await docs.expand('GET', '/api/items/{id}');
  await expect(item.getByText('The item’s id.')).toBeVisible();
  await expect(item.getByText('No such item, or not one the caller may see', { exact: false })).toBeVisible();
  // Nothing refused by the Content-Security-Policy, nothing fetched from elsewhere.
  expect(docs.problems).toEqual([]);
  await takePictures(page, docs, 'api-docs', 'reference');
});
