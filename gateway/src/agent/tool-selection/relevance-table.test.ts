import { describe, expect, it } from 'vitest';
import { INSTALLED_TOOLS } from './testing/installed-tools.ts';
import { createToolSelector } from './tool-selector.ts';

/**
 * Thirty messages an owner might send, each with the tool it should be offered among the fifty
 * installed ones. Written before the selection rule, and not tuned to it.
 */
const CASES: readonly (readonly [message: string, tool: string])[] = [
  ['open an issue on hearth about the login crash', 'gh__create_issue'],
  ['what pull requests are waiting for my review?', 'gh__list_pull_requests'],
  ['search the code on github for parseConfig', 'gh__search_code'],
  ['read ~/notes/todo.txt for me', 'fs__read_file'],
  ['save this list to a file called groceries.md', 'fs__write_file'],
  ['what files are in my Downloads folder?', 'fs__list_directory'],
  ['post "deploy done" in the #ops channel on Slack', 'slack__post_message'],
  ['what did people say in the slack channel #general today?', 'slack__get_channel_history'],
  ['what is on my calendar tomorrow?', 'gcal__list_events'],
  ['schedule a meeting with Sam on Friday at 3pm', 'gcal__create_event'],
  ['delete the dentist appointment from my calendar', 'gcal__delete_event'],
  ['email Bob the quarterly report', 'gmail__send_email'],
  ['did I get any emails from the bank this week?', 'gmail__search_emails'],
  ['find my Notion page about the trip to Lisbon', 'notion__search_pages'],
  ['how many users signed up yesterday? the database is postgres', 'pg__query'],
  ['play some jazz', 'spotify_play'],
  ['pause the music', 'spotify_pause'],
  ['turn off the living room lights', 'ha__turn_off'],
  ['set the heating to 21 degrees', 'ha__set_thermostat'],
  ['will it rain in Paris this weekend?', 'weather_forecast'],
  ['add "buy milk" to my to-do list', 'todo_add_task'],
  ['mark the dentist task as done', 'todo_complete_task'],
  ['translate "good morning" into Japanese', 'translate_text'],
  ['how much is 250 dollars in euros?', 'currency_convert'],
  ['who was Ada Lovelace? check wikipedia', 'wiki_summary'],
  ['how do I get from the station to the museum by bike?', 'maps_directions'],
  ['find a good ramen restaurant near me', 'maps_search_places'],
  ['is the nginx container running?', 'docker__list_containers'],
  ['show me the logs of the api container', 'docker__container_logs'],
  ['what is in the news today?', 'news_headlines'],
];

describe('tool relevance (keyword index, 50 installed tools, 8 offered at most)', () => {
  const selector = createToolSelector({});

  it('offers the right tool for at least 28 of the 30 messages', async () => {
    const misses: string[] = [];
    for (const [message, expected] of CASES) {
      const offered = await selector.select({
        tools: INSTALLED_TOOLS,
        message,
        recent: [],
        maxOffered: 8,
      });
      expect(offered.length).toBeLessThanOrEqual(8);
      if (!offered.some((tool) => tool.name === expected))
        misses.push(`${message} → ${offered.map((tool) => tool.name).join(', ')}`);
    }
    expect(CASES).toHaveLength(30);
    expect(misses.length, misses.join('\n')).toBeLessThanOrEqual(2);
  });

  it('offers nothing for a plain greeting', async () => {
    for (const message of ['hello', 'hi there!', 'thanks, that was helpful'])
      expect(
        await selector.select({ tools: INSTALLED_TOOLS, message, recent: [], maxOffered: 8 }),
      ).toEqual([]);
  });
});
