/** SillyTavern chat files for the chat-transfer tests. */

export const stHeader = (userName = "Alex") => ({
  user_name: userName,
  character_name: "Mira",
  create_date: "2024-05-01@20h00m00s",
  chat_metadata: { note_prompt: "Remember the storm", tainted: false },
});

/** A small chat: greeting with swipes, a user message naming the user, a reply with swipes, a system note, an empty one. */
export function stChat(userName = "Alex"): string {
  const lines: unknown[] = [
    stHeader(userName),
    {
      name: "Mira",
      is_user: false,
      send_date: "May 1, 2024 8:00pm",
      mes: "Welcome back, {{user}}.",
      swipes: ["Oh, hello {{user}}!", "Welcome back, {{user}}."],
      swipe_id: 1,
      swipe_info: [{}, {}],
    },
    {
      name: userName,
      is_user: true,
      send_date: "2024-05-01T20:01:00.000Z",
      mes: `Hi {{char}}, it's ${userName}. Call me ${userName}!`,
      extra: { bias: "" },
    },
    { name: "System", is_user: false, is_system: true, send_date: 1714593700000, mes: "/sys narrator note" },
    {
      name: "Mira",
      is_user: false,
      send_date: "2024-05-01T20:02:00.000Z",
      mes: "Third try, <b>bold</b>",
      swipes: ["First try", "Second try", "Third try, <b>bold</b>"],
      swipe_id: 2,
      extra: { api: "openai", model: "gpt-x" },
      gen_started: "2024-05-01T20:01:58.000Z",
    },
    { name: userName, is_user: true, send_date: "2024-05-01T20:03:00.000Z", mes: "   " },
  ];
  return lines.map((l) => JSON.stringify(l)).join("\n");
}

/** A long SillyTavern chat: `count` messages alternating user and bot, every bot one with two swipes. */
export function longStChat(count: number): string {
  const out = [JSON.stringify(stHeader())];
  const start = Date.parse("2024-01-01T00:00:00Z");
  for (let i = 0; i < count; i++) {
    const user = i % 2 === 1;
    const send_date = new Date(start + i * 1000).toISOString();
    out.push(
      JSON.stringify(
        user
          ? { name: "Alex", is_user: true, send_date, mes: `Message ${i} from {{user}}` }
          : {
              name: "Mira",
              is_user: false,
              send_date,
              mes: `Reply ${i}`,
              swipes: [`Other ${i}`, `Reply ${i}`],
              swipe_id: 1,
            },
      ),
    );
  }
  return out.join("\n");
}
