// Public surface of the gateway client (CLI, UI, tests). `deviceSigner` lives in ./device.ts because
// it needs node:crypto; import it from there.
export { connectGateway } from "./gateway-client.js";
export { type ChatTextUpdate, nextChatText } from "./text-deltas.js";
export {
  type ClientErrorCode,
  type CloseInfo,
  type ConnectGatewayOptions,
  type DeviceBlock,
  type DeviceSigner,
  type DeviceSignInput,
  type GapPayload,
  type GatewayClient,
  type GatewayClientInfo,
  type GatewayEvent,
  GatewayRequestError,
  isGatewayRequestError,
  type RequestOptions,
  type WebSocketConstructor,
  type WebSocketLike,
} from "./types.js";
