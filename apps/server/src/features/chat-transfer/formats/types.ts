import type { ChatImportReport, HearthChatMessage } from "@hearth/contract";

/** A message read from a chat file, before it is stored. */
export interface ImportedMessage {
  role: "user" | "bot";
  /** Every alternative; `alternatives[alternativeIndex]` is the message's text. */
  alternatives: string[];
  alternativeIndex: number;
  state: HearthChatMessage["state"];
  createdAt: Date;
  imageUrl: string | null;
  imagePrompt: string | null;
  rating: number | null;
}

export interface ImportedMemory {
  content: string;
  pinned: boolean;
  source: "manual" | "auto";
  /** Places in the imported messages. */
  messageIndexes: number[];
  createdAt: Date | null;
}

/** A chat file read into what Hearth stores, and what the reading left out. */
export interface ImportedChat {
  format: ChatImportReport["format"];
  title: string | null;
  /** The persona id a Hearth file names (kept only when it is the importer's). */
  personaId: string | null;
  /** The user's name in the file (SillyTavern's user_name), mapped to the persona's. */
  userName: string | null;
  /** The character's name in the file, and other bot speakers (SillyTavern group chats). */
  characterName: string | null;
  otherSpeakers: string[];
  messages: ImportedMessage[];
  memories: ImportedMemory[];
  lorebookIds: string[];
  skippedSystem: number;
  skippedEmpty: number;
  skippedAlternatives: number;
  droppedKeys: string[];
}

/** What an export writes from: the conversation as stored, its names resolved. */
export interface ExportedChat {
  conversationId: string;
  characterId: string;
  characterName: string;
  title: string | null;
  persona: { id: string | null; name: string };
  createdAt: Date;
  messages: {
    id: string;
    role: "user" | "bot";
    content: string;
    alternatives: string[];
    alternativeIndex: number;
    state: HearthChatMessage["state"];
    createdAt: Date;
    imageUrl: string | null;
    imagePrompt: string | null;
    rating: number | null;
  }[];
  memories: {
    content: string;
    pinned: boolean;
    source: "manual" | "auto";
    messageIds: string[];
    createdAt: Date;
  }[];
  lorebooks: { id: string; name: string }[];
}

/** Strings from a file, made storable: no NUL (PostgreSQL refuses it), no lone surrogates. */
export const clean = (text: string): string => text.replaceAll(String.fromCharCode(0), "").toWellFormed();
