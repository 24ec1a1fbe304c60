// Hearth's service worker: shows push notifications, and for an approval request offers the
// actions the gateway lists: Approve and Deny, or, when the notification cannot show the whole
// command, Open and Deny (no approve token is sent then). The worker never holds the API key:
// an approval push carries one decision token per action, bound by the gateway to that approval
// and that decision, single use and expiring with the approval, which
// `POST /api/v1/approvals/{id}/decide` accepts in place of the key. Without a token (or when the gateway refuses it) an action opens the
// Approvals view instead.
// Controls the open pages at once, so an action can bring one to the Approvals view.
self.addEventListener('activate', (event) => {
  event.waitUntil(self.clients.claim());
});

self.addEventListener('push', (event) => {
  event.waitUntil(showPush(event.data));
});

/** Shows one push message (its data as the gateway sent it). */
function showPush(message) {
  let data;
  try {
    data = message ? message.json() : {};
  } catch {
    data = { title: 'Hearth', body: message ? message.text() : '' };
  }
  const approval = typeof data.approval_id === 'string' ? data.approval_id : undefined;
  const tokens = approval && data.decision_tokens ? data.decision_tokens : {};
  return self.registration.showNotification(data.title || 'Hearth', {
    body: data.body || '',
    tag: approval ? `approval-${approval}` : undefined,
    data: {
      approval_id: approval,
      tokens: {
        approve: typeof tokens.approve === 'string' ? tokens.approve : undefined,
        deny: typeof tokens.deny === 'string' ? tokens.deny : undefined,
      },
    },
    icon: '/icon-192.png',
    actions: approval ? approvalActions(data.actions, tokens) : [],
  });
}

const TITLES = { approve: 'Approve', deny: 'Deny', open: 'Open' };

/**
 * The approval's actions as the gateway lists them (Approve and Deny when it lists none).
 * Approve only with an approve token: a push that cannot show the whole command has none, and
 * offers Open and Deny instead.
 */
function approvalActions(listed, tokens) {
  const names = Array.isArray(listed) ? listed : ['approve', 'deny'];
  return names
    .filter((name) => name in TITLES)
    .filter((name) => name !== 'approve' || typeof tokens.approve === 'string')
    .map((name) => ({ action: name, title: TITLES[name] }));
}

async function decide(id, action, token) {
  const base = `/api/v1/approvals/${encodeURIComponent(id)}`;
  if (token) {
    const response = await fetch(`${base}/decide`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ decision: action, token }),
    });
    return response.ok;
  }
  // No token: the plain route, which only a gateway without an API key accepts.
  const response = await fetch(`${base}/${action}`, { method: 'POST' });
  return response.ok;
}

async function openApprovals() {
  const windows = await self.clients.matchAll({ type: 'window', includeUncontrolled: true });
  for (const client of windows) {
    if ('focus' in client) {
      // The browser may refuse focus (no user activation); the page still goes there.
      await client.focus().catch(() => undefined);
      if ('navigate' in client) await client.navigate('/#approvals');
      return;
    }
  }
  await self.clients.openWindow('/#approvals');
}

/** A click on a notification or one of its actions ('approve', 'deny', or '' for the body). */
function handleNotificationClick(notification, action) {
  const data = notification.data || {};
  const id = data.approval_id;
  notification.close();
  if (id && (action === 'approve' || action === 'deny')) {
    const token = data.tokens ? data.tokens[action] : undefined;
    return decide(id, action, token).then(
      (ok) => (ok ? undefined : openApprovals()),
      openApprovals,
    );
  }
  return openApprovals();
}

self.addEventListener('notificationclick', (event) => {
  event.waitUntil(handleNotificationClick(event.notification, event.action));
});
