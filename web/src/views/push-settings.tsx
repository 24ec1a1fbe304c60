import type { ApiBody } from '@hearth/client';
import { useEffect, useState } from 'preact/hooks';
import { api } from '../api.ts';

function base64UrlToBytes(text: string): Uint8Array<ArrayBuffer> {
  const padded = text.replace(/-/g, '+').replace(/_/g, '/');
  const binary = atob(padded + '='.repeat((4 - (padded.length % 4)) % 4));
  return Uint8Array.from(binary, (c) => c.charCodeAt(0));
}

/** Push notifications: the service worker subscribes with the gateway's VAPID key. */
export function PushSettings(props: { onMessage: (text: string) => void }) {
  const [state, setState] = useState<'unsupported' | 'off' | 'on'>('off');
  useEffect(() => {
    if (!('serviceWorker' in navigator) || !('PushManager' in window)) {
      setState('unsupported');
      return;
    }
    void navigator.serviceWorker.getRegistration('/').then(async (registration) => {
      const subscription = await registration?.pushManager.getSubscription();
      setState(subscription ? 'on' : 'off');
    });
  }, []);
  const enable = async () => {
    try {
      const { public_key } = await api('GET', '/push/vapid-public-key');
      const registration = await navigator.serviceWorker.register('/sw.js', { scope: '/' });
      await navigator.serviceWorker.ready;
      if ((await Notification.requestPermission()) !== 'granted') {
        props.onMessage('Notifications are blocked for this site.');
        return;
      }
      const subscription = await registration.pushManager.subscribe({
        userVisibleOnly: true,
        applicationServerKey: base64UrlToBytes(public_key),
      });
      // A subscription pushManager made has its endpoint and keys (toJSON types them optional).
      const body = subscription.toJSON() as ApiBody<'/push/subscribe', 'POST'>;
      await api('POST', '/push/subscribe', { body });
      setState('on');
      props.onMessage('Notifications are on for this browser.');
    } catch (error) {
      props.onMessage(`Notifications could not be enabled: ${(error as Error).message}`);
    }
  };
  const disable = async () => {
    const registration = await navigator.serviceWorker.getRegistration('/');
    const subscription = await registration?.pushManager.getSubscription();
    if (subscription) {
      await api('DELETE', '/push/subscribe', { body: { endpoint: subscription.endpoint } }).catch(
        () => undefined,
      );
      await subscription.unsubscribe();
    }
    setState('off');
    props.onMessage('Notifications are off.');
  };
  return (
    <div class="card">
      <h3>Notifications</h3>
      {state === 'unsupported' ? (
        <p class="muted">This browser cannot receive push notifications here (it needs https).</p>
      ) : state === 'on' ? (
        <button type="button" onClick={() => void disable()}>
          Turn notifications off
        </button>
      ) : (
        <button type="button" onClick={() => void enable()}>
          Notify me of approvals
        </button>
      )}
    </div>
  );
}
