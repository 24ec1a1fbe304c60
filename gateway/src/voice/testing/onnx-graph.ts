/**
 * Test support: small ONNX graphs written with the protobuf encoder the embedder's tests use
 * (field numbers from the public onnx.proto), so the voice tests can drive the real
 * onnxruntime loading path of model types whose weights cannot be downloaded here.
 */
import { ProtoWriter } from '../../memory/embedder/testing/protobuf-writer.ts';

export const FLOAT = 1;
export const INT64 = 7;
const ATTRIBUTE_INT = 2;
const ATTRIBUTE_INTS = 7;

export interface GraphNode {
  op: string;
  inputs: readonly string[];
  outputs: readonly string[];
  ints?: Record<string, number>;
  /** List-of-int attributes (e.g. Transpose `perm`). */
  intLists?: Record<string, readonly number[]>;
}

export interface GraphTensor {
  name: string;
  type: typeof FLOAT | typeof INT64;
  dims: readonly number[];
  values: readonly number[];
}

export interface GraphIo {
  name: string;
  type: typeof FLOAT | typeof INT64;
  dims: readonly (number | string)[];
}

export function buildOnnxGraph(graph: {
  name: string;
  nodes: readonly GraphNode[];
  initializers: readonly GraphTensor[];
  inputs: readonly GraphIo[];
  outputs: readonly GraphIo[];
  opset?: number;
}): Uint8Array {
  return new ProtoWriter()
    .varint(1, 8)
    .string(2, 'hearth-voice-test')
    .string(3, '1')
    .message(7, (g) => {
      graph.nodes.forEach((node, index) =>
        g.message(1, (n) => {
          for (const input of node.inputs) n.string(1, input);
          for (const output of node.outputs) n.string(2, output);
          n.string(3, `${node.op.toLowerCase()}_${index}`);
          n.string(4, node.op);
          for (const [name, value] of Object.entries(node.ints ?? {}))
            n.message(5, (a) => a.string(1, name).varint(3, value).varint(20, ATTRIBUTE_INT));
          for (const [name, values] of Object.entries(node.intLists ?? {}))
            n.message(5, (a) => {
              a.string(1, name);
              for (const value of values) a.varint(8, value);
              a.varint(20, ATTRIBUTE_INTS);
            });
        }),
      );
      g.string(2, graph.name);
      for (const tensor of graph.initializers) g.message(5, (t) => writeTensor(t, tensor));
      for (const input of graph.inputs) g.message(11, (v) => writeValueInfo(v, input));
      for (const output of graph.outputs) g.message(12, (v) => writeValueInfo(v, output));
    })
    .message(8, (opset) => opset.string(1, '').varint(2, graph.opset ?? 13))
    .finish();
}

function writeTensor(t: ProtoWriter, tensor: GraphTensor): void {
  const size = tensor.type === FLOAT ? 4 : 8;
  const raw = new Uint8Array(tensor.values.length * size);
  const view = new DataView(raw.buffer);
  tensor.values.forEach((value, index) => {
    if (tensor.type === FLOAT) view.setFloat32(index * 4, value, true);
    else view.setBigInt64(index * 8, BigInt(value), true);
  });
  t.packedVarints(1, tensor.dims).varint(2, tensor.type).string(8, tensor.name).bytes(9, raw);
}

function writeValueInfo(v: ProtoWriter, io: GraphIo): void {
  v.string(1, io.name).message(2, (type) =>
    type.message(1, (tensor) =>
      tensor.varint(1, io.type).message(2, (shape) => {
        for (const dim of io.dims)
          shape.message(1, (d) => (typeof dim === 'number' ? d.varint(1, dim) : d.string(2, dim)));
      }),
    ),
  );
}
