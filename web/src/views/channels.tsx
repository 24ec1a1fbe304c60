import type { ApiResponse } from '@hearth/client';
import { useState } from 'preact/hooks';
import { api } from '../api.ts';
import { LoadState, Outcome, Stats, count, useLoad, useOutcome, when } from './admin-ui.tsx';

type Channel = ApiResponse<'/channels'>['channels'][number];
type Status = Channel['status'];

const UP: readonly Status[] = ['connected', 'standby'];

/** Every configured channel: its state, enable/disable/reconnect, and one opened in detail. */
export function ChannelsView() {
  const [list, reload] = useLoad(() => api('GET', '/channels'), [], 10_000);
  const [open, setOpen] = useState<string>();
  const [outcome, run] = useOutcome();

  const act = (name: string, action: 'enable' | 'disable' | 'reconnect') =>
    void run(
      (action === 'enable'
        ? api('POST', '/channels/{name}/enable', { params: { name } })
        : action === 'disable'
          ? api('POST', '/channels/{name}/disable', { params: { name } })
          : api('POST', '/channels/{name}/reconnect', { params: { name } })
      ).then(() => {
        void reload();
        return action === 'enable'
          ? `Enabled ${name}`
          : action === 'disable'
            ? `Disabled ${name}`
            : `Reconnecting ${name}`;
      }),
    );

  return (
    <section aria-labelledby="channels-title">
      <h2 id="channels-title">Channels</h2>
      <Outcome outcome={outcome} />
      <LoadState
        loaded={list}
        what="channels"
        empty={(data) =>
          data.channels.length === 0
            ? 'No channel is configured. Add a [channels.<name>] table to config.toml (see the README, "Channels").'
            : undefined
        }
      >
        {(data) => (
          <ul class="cards">
            {data.channels.map((channel) => (
              <li key={channel.name} class="card">
                <h3>
                  {channel.name} <span class="muted">({channel.type})</span>
                </h3>
                <p>
                  <span class={`state-pill ${UP.includes(channel.status) ? 'good' : 'bad'}`}>
                    {channel.status}
                  </span>
                </p>
                <Stats
                  items={[
                    ['Unread', count(channel.unread)],
                    ['Messages', count(channel.messages_total)],
                    [
                      'Last message',
                      channel.last_message_at === null
                        ? 'none yet'
                        : when(Date.parse(channel.last_message_at)),
                    ],
                  ]}
                />
                <div class="actions">
                  {channel.status === 'disabled' ? (
                    <button type="button" onClick={() => act(channel.name, 'enable')}>
                      Enable {channel.name}
                    </button>
                  ) : (
                    <button
                      type="button"
                      class="danger"
                      onClick={() => act(channel.name, 'disable')}
                    >
                      Disable {channel.name}
                    </button>
                  )}
                  <button
                    type="button"
                    disabled={channel.status === 'disabled'}
                    onClick={() => act(channel.name, 'reconnect')}
                  >
                    Reconnect {channel.name}
                  </button>
                  <button
                    type="button"
                    aria-expanded={open === channel.name}
                    aria-controls={`channel-${channel.name}`}
                    onClick={() => setOpen(open === channel.name ? undefined : channel.name)}
                  >
                    {open === channel.name ? 'Hide details' : 'Details'}
                    <span class="visually-hidden"> of {channel.name}</span>
                  </button>
                </div>
                {open === channel.name ? (
                  <ChannelDetail name={channel.name} onChange={() => void reload()} />
                ) : null}
              </li>
            ))}
          </ul>
        )}
      </LoadState>
    </section>
  );
}

/** One channel: counters and last error, pairing requests to approve, recent messages. */
function ChannelDetail(props: { name: string; onChange: () => void }) {
  const { name } = props;
  const [detail, reloadDetail] = useLoad(
    () => api('GET', '/channels/{name}', { params: { name } }),
    [name],
    10_000,
  );
  const [pairings, reloadPairings] = useLoad(
    () => api('GET', '/channels/{name}/pairings', { params: { name } }),
    [name],
    10_000,
  );
  const [messages, reloadMessages] = useLoad(
    () => api('GET', '/channels/{name}/messages', { params: { name }, query: { limit: 20 } }),
    [name],
    10_000,
  );
  const [outcome, run] = useOutcome();

  const approve = (code: string) =>
    void run(
      api('POST', '/channels/{name}/pairings/{code}/approve', { params: { name, code } }).then(
        (result) => {
          void reloadPairings();
          return `Approved ${result.sender_id} on ${name}`;
        },
      ),
    );
  const markRead = () =>
    void run(
      api('PATCH', '/channels/{name}/mark-read', { params: { name } }).then((result) => {
        void reloadMessages();
        void reloadDetail();
        props.onChange();
        return `Marked ${result.marked_read} message${result.marked_read === 1 ? '' : 's'} read`;
      }),
    );

  return (
    <div id={`channel-${name}`}>
      <h4>State</h4>
      <LoadState loaded={detail} what={`the state of ${name}`}>
        {(d) => (
          <>
            <Stats
              items={[
                ['Received', count(d.stats.messages_in_total)],
                ['Sent', count(d.stats.messages_out_total)],
                ['Errors', count(d.stats.errors_total)],
                ['Reply mode', d.config.reply_mode],
                ['Rate limit', `${d.config.rate_limit_per_minute}/min`],
              ]}
            />
            {d.last_error === undefined ? null : (
              <p class="error wrap">Last error: {d.last_error}</p>
            )}
          </>
        )}
      </LoadState>
      <Outcome outcome={outcome} />
      <h4>Pairing requests</h4>
      <LoadState
        loaded={pairings}
        what="pairings"
        empty={(data) => (data.pairings.length === 0 ? 'No sender has asked to pair.' : undefined)}
      >
        {(data) => (
          <ul class="plain-list">
            {data.pairings.map((pairing) => (
              <li key={pairing.sender_id} class="row">
                <span class="wrap">{pairing.sender_id}</span>
                {pairing.status === 'pending' && pairing.code !== undefined ? (
                  <>
                    <span class="state-pill bad">pending, code {pairing.code}</span>
                    <button type="button" onClick={() => approve(pairing.code ?? '')}>
                      Approve {pairing.sender_id}
                    </button>
                  </>
                ) : (
                  <span class="state-pill good">approved</span>
                )}
              </li>
            ))}
          </ul>
        )}
      </LoadState>
      <h4>Recent messages</h4>
      <LoadState
        loaded={messages}
        what="messages"
        empty={(data) => (data.messages.length === 0 ? 'No message yet.' : undefined)}
      >
        {(data) => (
          <>
            <button type="button" onClick={markRead}>
              Mark all read
            </button>
            <ul class="plain-list">
              {data.messages.map((message) => (
                <li key={message.id}>
                  <span class="muted">
                    {message.direction === 'in'
                      ? `From ${message.user ?? message.chat_id}`
                      : `To ${message.chat_id}`}
                    {' · '}
                    {when(Date.parse(message.timestamp))}
                  </span>
                  <div class="wrap">{message.text}</div>
                </li>
              ))}
            </ul>
            <p class="muted">
              Showing {data.messages.length} of {count(data.total)}.
            </p>
          </>
        )}
      </LoadState>
    </div>
  );
}
