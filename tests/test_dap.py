"""`ascasm dap`, driven message by message by a scripted client of our own (as an editor would):
a conditional breakpoint, stepping over, into and out of an inlined helper, stepping back, reverse
continue, and a RegTensor's lanes as variables, on tests/kernels/scale_sum.cpp. Expected values
from the numpy model of test_debugger_cpp.py."""
from __future__ import annotations

import io
import json
import os
import queue
import re
import subprocess
import sys
import tempfile
import threading
from pathlib import Path

import numpy as np
import pytest

from ascasm.debugger.dap import ProtocolError, read_message, write_message
from test_debugger_cpp import COUNT, KERNEL, SCALE, X, model

TIMEOUT = 60


class Client:
    """A DAP client over a subprocess's pipes: requests one at a time, events kept in order."""

    def __init__(self, command=(sys.executable, "-m", "ascasm", "dap"), cwd=None, env=None):
        # a neutral working directory: from the repository root, -m would import the source tree
        # instead of the installed package
        self.process = subprocess.Popen(list(command), stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                        stderr=subprocess.PIPE, cwd=cwd or tempfile.gettempdir(), env=env)
        self.messages: queue.Queue = queue.Queue()
        self.events: list[dict] = []
        self.seq = 0
        threading.Thread(target=self._read, daemon=True).start()

    def _read(self):
        while True:
            message = read_message(self.process.stdout)
            self.messages.put(message)
            if message is None:
                return

    def next_message(self) -> dict:
        message = self.messages.get(timeout=TIMEOUT)
        assert message is not None, "the server closed its output"
        return message

    def request(self, command: str, **arguments) -> dict:
        self.seq += 1
        write_message(self.process.stdin, {"seq": self.seq, "type": "request", "command": command,
                                           "arguments": arguments})
        while True:
            message = self.next_message()
            if message["type"] == "response" and message["request_seq"] == self.seq:
                assert message["command"] == command
                return message
            self.events.append(message)

    def event(self, name: str) -> dict:
        """The first event `name` not yet taken (waiting for it)."""
        while True:
            for k, message in enumerate(self.events):
                if message["event"] == name:
                    return self.events.pop(k)
            self.events.append(self.next_message())

    def stop(self) -> dict:
        stopped = self.event("stopped")
        assert stopped["body"]["threadId"] == 1
        return stopped["body"]

    def frames(self) -> list[tuple[str, int]]:
        body = self.request("stackTrace", threadId=1)["body"]
        return [(frame["name"], frame["line"]) for frame in body["stackFrames"]]

    def scope(self, name: str, frame: int = 0) -> dict:
        scopes = self.request("scopes", frameId=frame)["body"]["scopes"]
        reference = next(s["variablesReference"] for s in scopes if s["name"] == name)
        return {v["name"]: v for v in self.request("variables", variablesReference=reference)["body"]["variables"]}

    def evaluate(self, expression: str, frame: int = 0) -> str:
        response = self.request("evaluate", expression=expression, frameId=frame, context="watch")
        assert response["success"], response
        return response["body"]["result"]


@pytest.fixture
def client():
    pytest.importorskip("clang.cindex")
    c = Client()
    yield c
    if c.process.poll() is None:
        c.process.kill()
    c.process.wait(TIMEOUT)
    c.process.stdin.close()
    c.process.stdout.close()
    c.process.stderr.close()


def test_a_session_in_the_kernel(client, tmp_path, engine):
    blocks = model()
    np.save(tmp_path / "x.npy", X)
    capabilities = client.request("initialize", adapterID="ascasm", linesStartAt1=True)["body"]
    assert capabilities["supportsStepBack"] and capabilities["supportsConditionalBreakpoints"]
    launched = client.request("launch", program=str(KERNEL), entry="ScaleSumVF", engine=engine, cwd=str(tmp_path),
                              args={"yAddr": "f32[256]", "xAddr": "x.npy", "count": str(COUNT), "scale": str(SCALE)})
    assert launched["success"], launched
    client.event("initialized")                          # after the launch: ready for breakpoints
    set_ = client.request("setBreakpoints", source={"path": str(KERNEL)},
                          breakpoints=[{"line": 27, "condition": "left < 64"}])["body"]["breakpoints"]
    assert set_[0]["verified"] and set_[0]["line"] == 27
    assert client.request("threads")["body"]["threads"] == [{"id": 1, "name": "vector core 0"}]
    client.request("configurationDone")
    assert client.stop()["reason"] == "breakpoint"
    assert client.frames() == [("kernel", 27)]
    # block 2 (left = 8), before its LoadAlign: acc is acc_1, and its lanes are the variable's children
    locals_ = client.scope("Locals")
    assert locals_["left"]["value"] == "8" and locals_["i"]["value"] == "2"
    acc = locals_["acc"]
    assert acc["type"] == "RegTensor<float>" and acc["indexedVariables"] == 64
    lanes = client.request("variables", variablesReference=acc["variablesReference"])["body"]["variables"]
    assert [lane["name"] for lane in lanes[:2]] == ["[0]", "[1]"]
    assert np.array_equal(np.array([float(lane["value"]) for lane in lanes], np.float32), blocks[1][3])
    assert set(client.scope("Arguments")) == {"yAddr", "xAddr", "scale"}     # count: optimised out here
    assert "optimised out here" in client.request("evaluate", expression="count", frameId=0)["message"]
    assert set(client.scope("Registers")) >= {"s0", "v31", "p7", "pc"}
    # over the helper, back, into it, out of it
    client.request("next")
    assert client.stop()["reason"] == "step" and client.frames() == [("kernel", 28)]
    client.request("next")
    client.stop()
    assert client.frames() == [("kernel", 29)]
    client.request("stepBack")
    client.stop()
    assert client.frames() == [("kernel", 28)]
    client.request("stepIn")
    client.stop()
    assert client.frames() == [("ScaleBias", 12), ("kernel", 28)]
    assert set(client.scope("Arguments")) == {"dst", "src", "scale", "mask"}
    assert float(client.evaluate("src[5]")) == blocks[2][1][5]            # the block just loaded
    assert float(client.evaluate("x[5]", frame=1)) == blocks[2][1][5]     # the caller's name for it
    client.request("stepOut")
    client.stop()
    assert client.frames() == [("kernel", 29)]
    assert np.array_equal(_lanes(client, "t"), blocks[2][2])
    # reverse-continue to the conditional breakpoint: block 2's again
    client.request("reverseContinue")
    assert client.stop()["reason"] == "breakpoint" and client.frames() == [("kernel", 27)]
    assert client.evaluate("left") == "8"
    # to the end: the halt stops (there is still a way back), a continue ends the session
    client.request("setBreakpoints", source={"path": str(KERNEL)}, breakpoints=[])
    client.request("continue")
    assert client.stop()["reason"] == "halt"
    expected_y = np.concatenate([np.where(a, acc, 0) for a, _x, _t, acc, _l in blocks])[:COUNT]
    assert float(client.evaluate("yAddr[130]")) == expected_y[130]
    client.request("continue")
    assert client.event("exited")["body"]["exitCode"] == 0
    client.event("terminated")
    assert client.request("disconnect")["success"]
    assert client.process.wait(TIMEOUT) == 0


def _lanes(client, name) -> np.ndarray:
    reference = client.scope("Locals")[name]["variablesReference"]
    lanes = client.request("variables", variablesReference=reference)["body"]["variables"]
    return np.array([float(lane["value"]) for lane in lanes], np.float32)


def test_breakpoints_set_before_the_launch_apply_to_it(client, engine):
    client.request("initialize", adapterID="ascasm")
    early = client.request("setBreakpoints", source={"path": str(KERNEL)}, breakpoints=[{"line": 29}])
    assert early["success"] and not early["body"]["breakpoints"][0]["verified"]
    assert client.request("launch", program=str(KERNEL), engine=engine, args=[
        "yAddr=f32[256]", "xAddr=f32[256]", f"count={COUNT}", f"scale={SCALE}"])["success"]
    client.request("configurationDone")
    assert client.stop()["reason"] == "breakpoint" and client.frames() == [("kernel", 29)]
    assert client.request("disconnect")["success"]


def test_bad_requests_get_error_responses(client):
    assert "launch first" in client.request("stackTrace", threadId=1)["message"]
    assert not client.request("nonsense")["success"]
    missing = client.request("launch", program="/no/such/kernel.cpp")
    assert not missing["success"] and "no/such/kernel.cpp" in missing["message"]
    assert client.request("disconnect")["success"]
    assert client.process.wait(TIMEOUT) == 0


def test_the_vs_code_configuration_of_docs_debugger_md(tmp_path):
    """What VS Code does with docs/debugger.md's extension and launch configuration: start the
    extension's `adapter` script, send `initialize` as VS Code does, then `launch` with the whole
    configuration (its ${workspaceFolder} substituted, VS Code's own keys added), breakpoints, and
    configurationDone. The workspace holds the kernel and the x.npy the configuration names."""
    pytest.importorskip("clang.cindex")
    blocks = model()
    doc = (Path(__file__).resolve().parents[1] / "docs" / "debugger.md").read_text()
    doc = doc[doc.index("## Editors: `ascasm dap`"):doc.index("## Expressions")]
    package, launch = (json.loads(block) for block in re.findall(r"```json\n(.*?)```", doc, re.S))
    adapter_text = re.search(r"executable script `adapter` \(`(#!/bin/sh)` then `(exec ascasm dap)`\)", doc)
    extension = tmp_path / "ascasm-dap"
    extension.mkdir()
    (extension / "package.json").write_text(json.dumps(package))
    adapter = extension / "adapter"
    adapter.write_text(f"{adapter_text[1]}\n{adapter_text[2]}\n")
    adapter.chmod(0o755)
    debugger = package["contributes"]["debuggers"][0]
    configuration = launch["configurations"][0]
    assert configuration["type"] == debugger["type"] and configuration["request"] == "launch"
    assert debugger["program"] == "./adapter"
    workspace = tmp_path / "workspace"
    (workspace / "tests" / "kernels").mkdir(parents=True)
    (workspace / "tests" / "kernels" / "scale_sum.cpp").write_text(KERNEL.read_text())
    np.save(workspace / "x.npy", X)
    arguments = json.loads(json.dumps(configuration).replace("${workspaceFolder}", str(workspace)))
    kernel = workspace / "tests" / "kernels" / "scale_sum.cpp"
    assert arguments["program"] == str(kernel)
    # the installed `ascasm` on the PATH, as the editor's environment has it
    env = dict(os.environ, PATH=os.pathsep.join([str(Path(sys.executable).parent), os.environ.get("PATH", "")]))
    client = Client([str(adapter)], cwd=extension, env=env)
    try:
        capabilities = client.request("initialize", clientID="vscode", clientName="Visual Studio Code",
                                      adapterID=debugger["type"], pathFormat="path", linesStartAt1=True,
                                      columnsStartAt1=True, supportsVariableType=True, supportsVariablePaging=True,
                                      supportsRunInTerminalRequest=True, locale="en")
        assert capabilities["success"]
        assert client.request("launch", **arguments, __sessionId="a1b2")["success"]
        client.event("initialized")
        set_ = client.request("setBreakpoints", source={"name": "scale_sum.cpp", "path": str(kernel)},
                              lines=[27], breakpoints=[{"line": 27, "condition": "i == 1"}], sourceModified=False)
        assert set_["body"]["breakpoints"][0]["verified"]
        client.request("configurationDone")
        assert client.stop()["reason"] == "breakpoint"
        frame = client.request("stackTrace", threadId=1, startFrame=0, levels=20)["body"]["stackFrames"][0]
        assert frame["source"]["path"] == str(kernel) and frame["line"] == 27
        assert client.evaluate("left") == str(blocks[1][4])
        assert np.array_equal(_lanes(client, "acc"), blocks[0][3])
        assert client.request("disconnect", restart=False, terminateDebuggee=True)["success"]
        assert client.process.wait(TIMEOUT) == 0
    finally:
        client.process.kill()
        client.process.wait(TIMEOUT)
        for pipe in (client.process.stdin, client.process.stdout, client.process.stderr):
            pipe.close()


def test_framing():
    stream = io.BytesIO()
    write_message(stream, {"seq": 1, "type": "event", "event": "x"})
    stream.seek(0)
    assert read_message(stream) == {"seq": 1, "type": "event", "event": "x"} and read_message(stream) is None
    with pytest.raises(ProtocolError):
        read_message(io.BytesIO(b"Content-Length: 3\r\n\r\n{x}"))
    with pytest.raises(ProtocolError):
        read_message(io.BytesIO(b"Nothing: here\r\n\r\n{}"))
