/**
 * The settings area's public face: the service that reads and applies settings (the chat
 * pipeline's slash commands change the model through it). Other areas import only this file.
 */
export type { ModelSettingsChange, RuntimeModelView, SettingsService } from './settings-service.ts';
