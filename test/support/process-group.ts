import { readdirSync, readFileSync } from "node:fs";
import net from "node:net";

/**
 * What the end-to-end files that kill their own server (crash-recovery, plan-durability) check after the kill:
 * the processes left in its group, and whether its port is free again for the restart.
 */

/** Processes whose process group is `pgid` (Linux /proc); the comm field may contain spaces, so parse after ")". */
export function groupMembers(pgid: number): number[] {
  const members: number[] = [];
  for (const name of readdirSync("/proc")) {
    if (!/^\d+$/.test(name)) continue;
    try {
      const stat = readFileSync(`/proc/${name}/stat`, "utf8");
      const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
      // fields[0] = state, fields[1] = ppid, fields[2] = pgrp
      if (Number(fields[2]) === pgid && fields[0] !== "Z") members.push(Number(name));
    } catch {
      // gone meanwhile
    }
  }
  return members;
}

/** Whether `port` on 127.0.0.1 can be listened on right now. */
export function portIsFree(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const probe = net.createServer();
    probe.once("error", () => resolve(false));
    probe.listen(port, "127.0.0.1", () => probe.close(() => resolve(true)));
  });
}
