// Who a linked account is, from Baileys' `user` / `creds.me` (`15551234567:12@s.whatsapp.net`,
// `lid: 1234:12@lid`): its bare JID, bare LID and E.164 number, as inbound and status use them.
import { jidToE164 } from "../peer-id.js";
import { bareJid, type WebSelfIdentity } from "./inbound.js";
import type { Contact } from "./socket-seam.js";

/** The identity of a socket's `user` (or `creds.me`); undefined when it has no phone JID. */
export function selfIdentityOf(user: Contact | undefined | null): WebSelfIdentity | undefined {
  const id = user?.id ?? user?.phoneNumber;
  const e164 = id ? jidToE164(id) : undefined;
  if (!user || !id || !e164) return undefined;
  const identity: WebSelfIdentity = { jid: bareJid(id), e164 };
  if (user.lid) identity.lid = bareJid(user.lid);
  const name = user.name ?? user.notify ?? user.verifiedName;
  if (name) identity.name = name;
  return identity;
}
