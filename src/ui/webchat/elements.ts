// The page's fixed elements (index.html), looked up once by id and checked for their element type.

/** Every element WebChat drives. */
export interface WebChatElements {
  status: HTMLElement;
  error: HTMLElement;
  login: HTMLElement;
  loginForm: HTMLFormElement;
  tokenInput: HTMLInputElement;
  chat: HTMLElement;
  agentPicker: HTMLSelectElement;
  sessionPicker: HTMLSelectElement;
  logout: HTMLButtonElement;
  messages: HTMLOListElement;
  composer: HTMLFormElement;
  messageInput: HTMLTextAreaElement;
  send: HTMLButtonElement;
  abort: HTMLButtonElement;
}

function byId<T extends HTMLElement>(doc: Document, id: string, type: new () => T): T {
  const element = doc.getElementById(id);
  if (!(element instanceof type)) throw new Error(`webchat: #${id} is missing from the page`);
  return element;
}

/** Finds the elements; throws (a bug in index.html) when one is missing. */
export function findElements(doc: Document): WebChatElements {
  return {
    status: byId(doc, "status", HTMLElement),
    error: byId(doc, "error", HTMLElement),
    login: byId(doc, "login", HTMLElement),
    loginForm: byId(doc, "login-form", HTMLFormElement),
    tokenInput: byId(doc, "token-input", HTMLInputElement),
    chat: byId(doc, "chat", HTMLElement),
    agentPicker: byId(doc, "agent-picker", HTMLSelectElement),
    sessionPicker: byId(doc, "session-picker", HTMLSelectElement),
    logout: byId(doc, "logout", HTMLButtonElement),
    messages: byId(doc, "messages", HTMLOListElement),
    composer: byId(doc, "composer", HTMLFormElement),
    messageInput: byId(doc, "message-input", HTMLTextAreaElement),
    send: byId(doc, "send", HTMLButtonElement),
    abort: byId(doc, "abort", HTMLButtonElement),
  };
}
