/**
 * A seccomp filter handed to bubblewrap (`--seccomp`): no new processes at the kernel level.
 * fork and vfork fail with EPERM, clone only makes threads (CLONE_THREAD), clone3 answers
 * ENOSYS (its flags sit behind a pointer a filter cannot read, and the C library then falls
 * back to clone), and any other system-call ABI (i386, x32) fails. exec stays allowed:
 * bubblewrap itself execs the interpreter after loading the filter, and an exec only replaces
 * the one process, still inside every wall.
 * Classic BPF over `struct seccomp_data` (nr at 0, arch at 4, args[0] low word at 16).
 * x86_64 only; elsewhere null (the permission model and the namespaces still hold).
 *
 * The gateway and the sandbox sidecar (which is deployed on its own image) both import this one
 * file from common/sandbox/; the sidecar's image copies that folder beside its sources.
 */

const LD_W_ABS = 0x20;
const JEQ_K = 0x15;
const JGE_K = 0x35;
const JSET_K = 0x45;
const RET_K = 0x06;
const ALLOW = 0x7fff0000;
const ERRNO = 0x00050000;
const EPERM = 1;
const ENOSYS = 38;
const AUDIT_ARCH_X86_64 = 0xc000003e;
const X32_SYSCALL_BIT = 0x40000000;
const CLONE_THREAD = 0x00010000;
const NR = { clone: 56, fork: 57, vfork: 58, clone3: 435 };

type Instruction = [code: number, jt: number, jf: number, k: number];

export function noNewProcessesFilter(arch: string = process.arch): Buffer | null {
  if (arch !== 'x64') return null;
  // Indices: 10 allow, 11 EPERM, 12 ENOSYS; jumps count from the next instruction.
  const program: Instruction[] = [
    [LD_W_ABS, 0, 0, 4], // 0: arch
    [JEQ_K, 0, 9, AUDIT_ARCH_X86_64], // 1: another ABI → EPERM
    [LD_W_ABS, 0, 0, 0], // 2: syscall number
    [JGE_K, 7, 0, X32_SYSCALL_BIT], // 3: x32 → EPERM
    [JEQ_K, 6, 0, NR.fork], // 4
    [JEQ_K, 5, 0, NR.vfork], // 5
    [JEQ_K, 5, 0, NR.clone3], // 6 → ENOSYS
    [JEQ_K, 0, 2, NR.clone], // 7: not clone → allow
    [LD_W_ABS, 0, 0, 16], // 8: clone flags (low word)
    [JSET_K, 0, 1, CLONE_THREAD], // 9: a thread → allow, a process → EPERM
    [RET_K, 0, 0, ALLOW], // 10
    [RET_K, 0, 0, ERRNO | EPERM], // 11
    [RET_K, 0, 0, ERRNO | ENOSYS], // 12
  ];
  const buffer = Buffer.alloc(program.length * 8);
  program.forEach(([code, jt, jf, k], index) => {
    buffer.writeUInt16LE(code, index * 8);
    buffer.writeUInt8(jt, index * 8 + 2);
    buffer.writeUInt8(jf, index * 8 + 3);
    buffer.writeUInt32LE(k, index * 8 + 4);
  });
  return buffer;
}
