// Loads one method of the project's own .proto files (proto/) through @grpc/proto-loader.
// Decoding options shared by every Kaspa gRPC client: field names as written in the .proto,
// 64-bit integers as decimal strings (exact; amounts in sompi and DAA scores exceed 2^53),
// enums by name, absent fields as their defaults, and `payload` naming the oneof member set.
import { loadSync, type MethodDefinition, type Options } from '@grpc/proto-loader';
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

export const PROTO_LOAD_OPTIONS: Options = {
  keepCase: true,
  longs: String,
  enums: String,
  defaults: true,
  oneofs: true,
};

/**
 * The first of `candidates` (paths relative to this module) that exists. Run from the sources,
 * the first; run from the server bundle (scripts/build-server.mjs copies the files a module
 * opens by path flat beside the bundle), the flat name.
 */
export function besideModule(...candidates: string[]): string {
  const paths = candidates.map((candidate) => fileURLToPath(new URL(candidate, import.meta.url)));
  return paths.find((file) => existsSync(file)) ?? paths[0]!;
}

/** The path of a .proto file of this folder's proto/ directory. */
export function protoPath(file: string): string {
  return besideModule(`./proto/${file}`, `./${file}`);
}

/** The method `service.method` (service with its package: "protowire.RPC") of a proto file. */
export function loadMethod(file: string, service: string, method: string): MethodDefinition<object, object> {
  const definition = loadSync(protoPath(file), PROTO_LOAD_OPTIONS)[service];
  if (definition === undefined || 'format' in definition) {
    throw new Error(`${file} has no service ${service}`);
  }
  const found = definition[method];
  if (found === undefined) throw new Error(`${file}: ${service} has no method ${method}`);
  return found;
}
