import net from "node:net";
import { describeWithSharedData } from "@skillshelf/test-utils";
import { afterAll, beforeAll, expect, it } from "vitest";
import { main } from "../main.js";
import { capture } from "../test-utils/capture.js";
import { createStudioFixture, type StudioFixture } from "../test-utils/studio-fixture.js";
import { waitForOutput } from "../test-utils/wait-for-output.js";
import { run } from "./command.js";

let fixture: StudioFixture;
beforeAll(async () => {
  fixture = await createStudioFixture();
});
afterAll(() => fixture?.cleanup());

describeWithSharedData("skillshelf studio (command)", () => {
  it("is listed, answers --help, refuses bad options", async () => {
    const listed = capture(fixture.root);
    await main(["--help"], listed.ctx);
    expect(listed.out()).toMatch(/^ {2}studio +a local web page/m);
    const help = capture(fixture.root);
    expect(await main(["studio", "--help"], help.ctx)).toBe(0);
    expect(help.out()).toContain("Usage: skillshelf studio");
    const badPort = capture(fixture.root);
    expect(await main(["studio", "--port", "70000"], badPort.ctx)).toBe(2);
    expect(badPort.err()).toContain("--port must be 0..65535");
    const badRoot = capture(fixture.root);
    expect(await main(["studio", "--root", "nope"], badRoot.ctx)).toBe(2);
    expect(badRoot.err()).toContain("does not exist");
  });

  it("prints its loopback URL on the asked port and stops when told", async () => {
    const io = capture(fixture.root, { home: fixture.home });
    const stop = new AbortController();
    const port = await freePort();
    const exit = run(["--root", fixture.root, "--port", String(port)], io.ctx, stop.signal);
    await waitForOutput(io, "http://");
    expect(io.out()).toMatch(
      new RegExp(`^skillshelf studio: http://127\\.0\\.0\\.1:${port}/\\?token=[\\w-]{43}\\n`),
    );
    stop.abort();
    await expect(exit).resolves.toBe(0);
    // Closed: the port is free again.
    const again = await listen(port);
    await new Promise((r) => again.close(r));
  });

  it("says so when the port is taken", async () => {
    const taken = await listen(0);
    const port = (taken.address() as net.AddressInfo).port;
    const io = capture(fixture.root, { home: fixture.home });
    expect(await run(["--root", fixture.root, "--port", String(port)], io.ctx)).toBe(1);
    expect(io.err()).toContain(`cannot listen on 127.0.0.1:${port}`);
    taken.close();
  });
});

function listen(port: number): Promise<net.Server> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.once("error", reject);
    server.listen(port, "127.0.0.1", () => resolve(server));
  });
}

async function freePort(): Promise<number> {
  const server = await listen(0);
  const { port } = server.address() as net.AddressInfo;
  await new Promise((r) => server.close(r));
  return port;
}
