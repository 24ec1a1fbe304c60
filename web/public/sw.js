// Hearth's service worker: shows push notifications, and for an approval request offers
// Approve and Deny, which call the gateway's API. The API key never reaches the worker (the
// page keeps it in session storage only): when the gateway needs one, an action opens the
// Approvals view instead.
self.addEventListener('push', (event) => {
  let data;
  try {
    data = event.data ? event.data.json() : {};
  } catch {
    data = { title: 'Hearth', body: event.data ? event.data.text() : '' };
  }
  const approval = typeof data.approval_id === 'string' ? data.approval_id : undefined;
  event.waitUntil(
    self.registration.showNotification(data.title || 'Hearth', {
      body: data.body || '',
      tag: approval ? `approval-${approval}` : undefined,
      data: { approval_id: approval },
      icon: '/icon.svg',
      actions: approval
        ? [
            { action: 'approve', title: 'Approve' },
            { action: 'deny', title: 'Deny' },
          ]
        : [],
    }),
  );
});

async function decide(id, action) {
  const path = `/api/v1/approvals/${encodeURIComponent(id)}/${action}`;
  const response = await fetch(path, { method: 'POST' });
  return response.ok;
}

async function openApprovals() {
  const windows = await self.clients.matchAll({ type: 'window', includeUncontrolled: true });
  for (const client of windows) {
    if ('focus' in client) {
      await client.focus();
      if ('navigate' in client) await client.navigate('/#approvals');
      return;
    }
  }
  await self.clients.openWindow('/#approvals');
}

self.addEventListener('notificationclick', (event) => {
  const id = event.notification.data && event.notification.data.approval_id;
  event.notification.close();
  if (id && (event.action === 'approve' || event.action === 'deny')) {
    event.waitUntil(
      decide(id, event.action).then((ok) => (ok ? undefined : openApprovals()), openApprovals),
    );
  } else {
    event.waitUntil(openApprovals());
  }
});
