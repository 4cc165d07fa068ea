// Types of fake-oauth-provider.mjs (a pi-ai OAuth provider against the fake authorization server).
import type { OAuthProviderInterface } from "@mariozechner/pi-ai/oauth";

/** The provider `id` (default `fake-oauth`) against the fake server at `baseUrl`. */
export function fakeOAuthProvider(params: { id?: string; baseUrl: string }): OAuthProviderInterface;
