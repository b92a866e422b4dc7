"""Weight-only int8 export of a MathSense encoder: the .onnx the extension ships.

Each large weight (a MatMul or Gemm matrix, an embedding table) is stored as int8 in groups of
GROUP consecutive inputs of one output channel (consecutive features of one row of an embedding
table), each group with its own float16 scale: max |w| / 127, zero point 0, so zero stays exact.
The graph reads each weight back through Cast, Mul and Reshape of constants only, which
onnxruntime folds into a float weight once, at load: the model then computes as the float one
does, and every runtime that runs the float model runs this one.
The variants tried, and what `npm run eval` said of each, are in models/README.md.
The float model is the training run's output; this pass is deterministic, so the shipped file is
reproducible from it.

  /usr/bin/python3 models/training/quantize.py FLOAT.onnx OUT.onnx
"""
import sys

import numpy as np
import onnx
from onnx import helper, numpy_helper, TensorProto

# what training.json and config.json say the shipped weights are
GROUP = 32
WEIGHTS = f"int8 in groups of {GROUP} inputs with float16 scales, weight-only (quantize.py); float export: encoder.float.onnx"

# smaller tensors (biases, norms, positions of short models) are not worth the nodes
MIN_ELEMENTS = 4096


def input_axis(node, input_index):
    """The axis of a weight that runs over one output's inputs (its groups lie along it), for a
    weight used as this node's input; None when the use is not one this pass rewrites."""
    if node.op_type == "MatMul" and input_index == 1:
        return 0  # [in, out]
    if node.op_type == "Gemm" and input_index == 1:
        trans_b = next((a.i for a in node.attribute if a.name == "transB"), 0)
        return 1 if trans_b else 0
    if node.op_type == "Gather" and input_index == 0:
        axis = next((a.i for a in node.attribute if a.name == "axis"), 0)
        return 1 if axis == 0 else None  # a looked-up row's features
    return None


def grouped(w, axis):
    """w as [outer, groups, GROUP, inner] views along `axis` (one group when it does not divide)."""
    g = GROUP if w.shape[axis] % GROUP == 0 else w.shape[axis]
    if axis == 0:
        return w.reshape(1, w.shape[0] // g, g, w.shape[1])
    return w.reshape(w.shape[0], w.shape[1] // g, g, 1)


def quantize(model):
    graph = model.graph
    inits = {t.name: t for t in graph.initializer}
    uses = {}
    for node in graph.node:
        for k, name in enumerate(node.input):
            if name in inits:
                uses.setdefault(name, []).append((node, k))
    report = []
    new_nodes = []
    for name, tensor in list(inits.items()):
        if tensor.data_type != TensorProto.FLOAT or len(tensor.dims) != 2:
            continue
        w = numpy_helper.to_array(tensor)
        if w.size < MIN_ELEMENTS:
            continue
        axes = {input_axis(n, k) for n, k in uses.get(name, [])}
        if len(axes) != 1 or None in axes:
            continue
        g = grouped(w, axes.pop())
        peak = np.abs(g).max(axis=2, keepdims=True)
        scale = np.where(peak > 0, peak / 127.0, 1.0).astype(np.float16)
        q = np.clip(np.rint(g / scale.astype(np.float32)), -127, 127).astype(np.int8)
        back = (q.astype(np.float32) * scale.astype(np.float32)).reshape(w.shape)
        report.append((name, list(w.shape), float(np.abs(back - w).max())))
        graph.initializer.remove(tensor)
        graph.initializer.extend([
            numpy_helper.from_array(q, name + "_int8"),
            numpy_helper.from_array(scale, name + "_scale"),
            numpy_helper.from_array(np.array(w.shape, dtype=np.int64), name + "_shape"),
        ])
        new_nodes += [
            helper.make_node("Cast", [name + "_int8"], [name + "_q"], to=TensorProto.FLOAT, name=name + "_cast"),
            helper.make_node("Cast", [name + "_scale"], [name + "_s"], to=TensorProto.FLOAT, name=name + "_cast_scale"),
            helper.make_node("Mul", [name + "_q", name + "_s"], [name + "_grouped"], name=name + "_scale_up"),
            helper.make_node("Reshape", [name + "_grouped", name + "_shape"], [name], name=name + "_reshape"),
        ]
    # the weights' nodes come first: a graph's nodes are topologically sorted
    nodes = new_nodes + list(graph.node)
    del graph.node[:]
    graph.node.extend(nodes)
    onnx.checker.check_model(model)
    return report


def quantize_file(src, dst):
    model = onnx.load(src)
    report = quantize(model)
    onnx.save(model, dst)
    worst = max((err for _, _, err in report), default=0.0)
    print(f"wrote {dst} ({len(report)} weights int8, largest change of a weight {worst:.1e})", flush=True)


def main():
    if len(sys.argv) != 3:
        raise SystemExit(__doc__)
    quantize_file(sys.argv[1], sys.argv[2])


if __name__ == "__main__":
    main()
