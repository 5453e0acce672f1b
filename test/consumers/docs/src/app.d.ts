// The app's own names that the samples of docs/ use as placeholders (typed with the package's types where
// they hold its objects). Every export of pagent-web a sample calls must be imported by the sample itself.
declare const apiKey: string;
declare const token: string;
declare const readOnly: boolean;
declare const signal: AbortSignal;
declare const message: string;
declare const response: Response;
declare const res: import('node:http').ServerResponse;
declare const agent: import('pagent-web').Agent;
declare const chat: import('pagent-web/element').PagentChat;
declare let answer: string;
declare function showTool(name: string, args: string): void;
declare function showError(code: string, message: string): void;
declare function done(stopReason: string | undefined): void;
declare function fetchWeather(city: string, signal: AbortSignal): Promise<string>;
declare function render(text: string): void;
declare const timeline: { push(event: unknown): void };
