import { describe, expect, test } from "vitest";
import { isBot } from "./sources.ts";

/**
 * The robot rule against real user agents: people's browsers and in-app browsers are counted,
 * robots with a similar name are not.
 */
describe("isBot", () => {
  const people = {
    "DuckDuckGo browser on iOS":
      "Mozilla/5.0 (iPhone; CPU iPhone OS 18_1 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/18.1 Mobile/15E148 DuckDuckGo/7 Safari/605.1.15",
    "DuckDuckGo browser on Android":
      "Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Version/4.0 Chrome/131.0.6778.135 Mobile DuckDuckGo/5 Safari/537.36",
    "Telegram's in-app browser on Android":
      "Mozilla/5.0 (Linux; Android 13; SM-A536B Build/TP1A.220624.014; wv) AppleWebKit/537.36 (KHTML, like Gecko) Version/4.0 Chrome/130.0.6723.107 Mobile Safari/537.36 Telegram-Android/11.2.1 (Samsung SM-A536B; Android 13; SDK 33; AVERAGE)",
    "Safari on iPhone":
      "Mozilla/5.0 (iPhone; CPU iPhone OS 18_0 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/18.0 Mobile/15E148 Safari/604.1",
    "Chrome on Windows":
      "Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36",
  };
  for (const [name, ua] of Object.entries(people)) {
    test(`${name} is a person`, () => expect(isBot(ua)).toBe(false));
  }

  const robots = {
    DuckDuckBot: "DuckDuckBot/1.1; (+http://duckduckgo.com/duckduckbot.html)",
    "DuckDuckGo's favicon fetcher": "Mozilla/5.0 (compatible; DuckDuckGo-Favicons-Bot/1.0; +http://duckduckgo.com)",
    TelegramBot: "TelegramBot (like TwitterBot)",
    Googlebot: "Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)",
    "WhatsApp's link preview": "WhatsApp/2.23.20.0",
    "Headless Chrome": "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 HeadlessChrome/140.0.0.0 Safari/537.36",
  };
  for (const [name, ua] of Object.entries(robots)) {
    test(`${name} is a robot`, () => expect(isBot(ua)).toBe(true));
  }
});
