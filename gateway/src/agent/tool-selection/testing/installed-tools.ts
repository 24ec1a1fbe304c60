/**
 * TEST FIXTURE. Fifty tools as an owner with many MCP servers, hub packages and skills has them
 * installed, described the way such servers describe their tools (for the relevance table and
 * the upstream-bytes measurements).
 */
import type { Tool } from '../../../tools/ports.ts';

type Params = Record<string, string>;

function tool(name: string, source: string, description: string, params: Params = {}): Tool {
  return {
    name,
    description,
    parameters: {
      type: 'object',
      properties: Object.fromEntries(
        Object.entries(params).map(([key, text]) => [key, { type: 'string', description: text }]),
      ),
      required: Object.keys(params).slice(0, 1),
    },
    source,
    execute: () => Promise.resolve(`${name} ran`),
  };
}

const gh = 'mcp:gh';
const fs = 'mcp:fs';
const slack = 'mcp:slack';
const gcal = 'mcp:gcal';
const gmail = 'mcp:gmail';
const notion = 'mcp:notion';
const pg = 'mcp:pg';
const ha = 'mcp:ha';
const docker = 'mcp:docker';

export const INSTALLED_TOOLS: readonly Tool[] = [
  tool('gh__create_issue', gh, 'Create a new issue in a GitHub repository.', {
    owner: 'Repository owner',
    repo: 'Repository name',
    title: 'Issue title',
    body: 'Issue body',
  }),
  tool(
    'gh__list_pull_requests',
    gh,
    'List pull requests in a GitHub repository, filtered by state, author or reviewer.',
    {
      owner: 'Repository owner',
      repo: 'Repository name',
      state: 'open, closed or all',
    },
  ),
  tool('gh__search_code', gh, 'Search for code across GitHub repositories.', {
    q: 'Search query using GitHub code search syntax',
  }),
  tool(
    'gh__get_file_contents',
    gh,
    'Get the contents of a file or directory from a GitHub repository.',
    {
      owner: 'Repository owner',
      repo: 'Repository name',
      path: 'Path to the file or directory',
    },
  ),
  tool('gh__create_pull_request', gh, 'Create a new pull request in a GitHub repository.', {
    owner: 'Repository owner',
    repo: 'Repository name',
    head: 'Branch with the changes',
    base: 'Branch to merge into',
  }),
  tool('gh__merge_pull_request', gh, 'Merge a pull request.', {
    owner: 'Repository owner',
    repo: 'Repository name',
    pull_number: 'Pull request number',
  }),
  tool('fs__read_file', fs, 'Read the complete contents of a file from the file system.', {
    path: 'Path of the file',
  }),
  tool('fs__write_file', fs, 'Create a new file or overwrite an existing file with new content.', {
    path: 'Path of the file',
    content: 'Text to write',
  }),
  tool(
    'fs__list_directory',
    fs,
    'Get a listing of all files and directories in a specified path.',
    {
      path: 'Directory path',
    },
  ),
  tool('fs__search_files', fs, 'Recursively search for files and directories matching a pattern.', {
    path: 'Where to start',
    pattern: 'Glob or substring to match',
  }),
  tool('fs__move_file', fs, 'Move or rename files and directories.', {
    source: 'Current path',
    destination: 'New path',
  }),
  tool('slack__post_message', slack, 'Post a new message to a Slack channel.', {
    channel_id: 'The channel to post to',
    text: 'The message text',
  }),
  tool('slack__list_channels', slack, 'List public channels in the Slack workspace.', {
    limit: 'Maximum number of channels',
  }),
  tool('slack__get_channel_history', slack, 'Get recent messages from a Slack channel.', {
    channel_id: 'The channel',
    limit: 'How many messages',
  }),
  tool('slack__add_reaction', slack, 'Add an emoji reaction to a Slack message.', {
    channel_id: 'The channel',
    timestamp: 'The message timestamp',
    reaction: 'Emoji name',
  }),
  tool('gcal__list_events', gcal, 'List events on the user’s Google Calendar between two dates.', {
    time_min: 'Start (ISO 8601)',
    time_max: 'End (ISO 8601)',
  }),
  tool(
    'gcal__create_event',
    gcal,
    'Create a calendar event (a meeting, appointment or reminder) with attendees.',
    {
      summary: 'Event title',
      start: 'Start time',
      end: 'End time',
      attendees: 'Email addresses',
    },
  ),
  tool('gcal__delete_event', gcal, 'Delete an event from the calendar.', {
    event_id: 'The event',
  }),
  tool(
    'gcal__find_free_time',
    gcal,
    'Find free time slots in the calendar for a meeting of a given length.',
    {
      duration_minutes: 'Length of the slot',
    },
  ),
  tool('gmail__send_email', gmail, 'Send an email with Gmail, optionally with attachments.', {
    to: 'Recipient addresses',
    subject: 'Subject line',
    body: 'Message body',
  }),
  tool(
    'gmail__search_emails',
    gmail,
    'Search emails in the Gmail inbox using Gmail search syntax.',
    {
      query: 'Gmail search query, e.g. from:bank newer_than:7d',
    },
  ),
  tool('gmail__read_email', gmail, 'Read the full content of an email by its id.', {
    message_id: 'The email id',
  }),
  tool(
    'notion__search_pages',
    notion,
    'Search pages and databases in the Notion workspace by title.',
    {
      query: 'Text to search for',
    },
  ),
  tool('notion__create_page', notion, 'Create a new page in Notion under a parent page.', {
    parent_id: 'Parent page',
    title: 'Page title',
  }),
  tool('notion__append_block', notion, 'Append content blocks to a Notion page.', {
    page_id: 'The page',
    content: 'Markdown to append',
  }),
  tool('pg__query', pg, 'Run a read-only SQL query against the PostgreSQL database.', {
    sql: 'The SQL statement',
  }),
  tool('pg__list_tables', pg, 'List the tables in the PostgreSQL database.'),
  tool('pg__describe_table', pg, 'Show the columns and types of a table.', {
    table: 'Table name',
  }),
  tool(
    'spotify_play',
    'skill:spotify',
    'Start playback on Spotify: a track, album, artist, playlist or genre.',
    {
      query: 'What to play',
    },
  ),
  tool('spotify_pause', 'skill:spotify', 'Pause Spotify playback.'),
  tool('spotify_search_tracks', 'skill:spotify', 'Search the Spotify catalogue for tracks.', {
    query: 'Song or artist',
  }),
  tool('ha__turn_on', ha, 'Turn on a Home Assistant entity: a light, switch or fan.', {
    entity_id: 'e.g. light.kitchen',
  }),
  tool('ha__turn_off', ha, 'Turn off a Home Assistant entity: a light, switch or fan.', {
    entity_id: 'e.g. light.kitchen',
  }),
  tool('ha__get_state', ha, 'Get the current state of a Home Assistant entity or sensor.', {
    entity_id: 'e.g. sensor.outside_temperature',
  }),
  tool(
    'ha__set_thermostat',
    ha,
    'Set the target temperature of a climate entity (thermostat, heating).',
    {
      entity_id: 'e.g. climate.living_room',
      temperature: 'Target temperature',
    },
  ),
  tool(
    'weather_forecast',
    'skill:weather',
    'Weather forecast for a location for the next days: temperature, rain, wind.',
    {
      location: 'City or coordinates',
      days: 'How many days',
    },
  ),
  tool('weather_current', 'skill:weather', 'Current weather conditions at a location.', {
    location: 'City or coordinates',
  }),
  tool('todo_add_task', 'skill:todoist', 'Add a task to the Todoist to-do list.', {
    content: 'The task',
    due: 'Due date in natural language',
  }),
  tool(
    'todo_list_tasks',
    'skill:todoist',
    'List open tasks, optionally filtered by project or due date.',
    {
      filter: 'Todoist filter',
    },
  ),
  tool('todo_complete_task', 'skill:todoist', 'Mark a task as completed.', {
    task_id: 'The task',
  }),
  tool('translate_text', 'skill:translate', 'Translate text into another language.', {
    text: 'Text to translate',
    target_language: 'Language code, e.g. ja',
  }),
  tool(
    'currency_convert',
    'skill:currency',
    'Convert an amount between currencies at today’s exchange rate.',
    {
      amount: 'The amount',
      from: 'Currency code, e.g. USD',
      to: 'Currency code, e.g. EUR',
    },
  ),
  tool('wiki_search', 'skill:wikipedia', 'Search Wikipedia for articles.', {
    query: 'Search terms',
  }),
  tool(
    'wiki_summary',
    'skill:wikipedia',
    'Get the summary of a Wikipedia article about a person, place or topic.',
    {
      title: 'Article title',
    },
  ),
  tool(
    'maps_directions',
    'skill:maps',
    'Directions between two places by car, bike, foot or public transport.',
    {
      origin: 'Start address',
      destination: 'End address',
      mode: 'driving, bicycling, walking or transit',
    },
  ),
  tool(
    'maps_search_places',
    'skill:maps',
    'Find places such as restaurants, shops or cafés near a location.',
    {
      query: 'What to look for',
      near: 'Location',
    },
  ),
  tool('docker__list_containers', docker, 'List Docker containers with their status.', {
    all: 'Include stopped containers',
  }),
  tool('docker__container_logs', docker, 'Fetch the logs of a Docker container.', {
    container: 'Container name or id',
    tail: 'Number of lines',
  }),
  tool('docker__restart_container', docker, 'Restart a Docker container.', {
    container: 'Container name or id',
  }),
  tool('news_headlines', 'skill:news', 'Top news headlines of the day, by country or topic.', {
    topic: 'Topic, e.g. technology',
  }),
];

/**
 * `count` installed tools: the fifty above, then copies of them as other servers' tools
 * (`c1_gh__create_issue`, …), for the 500-tool measurements.
 */
export function manyInstalledTools(count: number): Tool[] {
  return Array.from({ length: count }, (_, i) => {
    const base = INSTALLED_TOOLS[i % INSTALLED_TOOLS.length]!;
    const copy = Math.floor(i / INSTALLED_TOOLS.length);
    return copy === 0 ? base : { ...base, name: `c${copy}_${base.name}` };
  });
}
