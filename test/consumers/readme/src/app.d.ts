// The app's own names that the README's samples use as placeholders. Everything from pagent-web must be
// imported by the samples themselves: nothing of the package is declared here.
declare const apiKey: string;
declare const signal: AbortSignal;
declare const response: Response;
declare const res: { write(chunk: string): void };
declare let answer: string;
declare function showTool(name: string, args: string): void;
declare function showError(code: string, message: string): void;
declare function done(stopReason: string | undefined): void;
declare function fetchWeather(city: string, signal: AbortSignal): Promise<string>;
declare function render(text: string): void;
declare const timeline: { push(event: unknown): void };
