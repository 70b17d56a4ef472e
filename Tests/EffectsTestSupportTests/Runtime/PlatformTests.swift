import Effects
import Foundation
import Testing

@testable import EffectsTestSupport

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// What the platform layer reads: the `/proc` texts Linux gives (parsed on every OS), and on Linux
/// the real files, for this process and for a child stopped by a signal.
@Suite struct PlatformTests {
  // MARK: The texts of /proc

  @Test func aStatLineGivesTheStateThatFollowsTheCommandName() {
    let states = ["S", "D", "R", "t", "T", "Z"].map { letter in
      ProcFS.threadState(stat: "4242 (swift-effects.V) \(letter) 1 4242 4242 0 -1 4194368 0 0")
    }
    #expect(states == [.waiting, .waiting, .running, .stopped, .stopped, .unknown])
  }

  @Test func aCommandNameWithSpacesAndParenthesesDoesNotHideTheState() {
    // The state is after the last `)`: a name of `a (b) c` would put `(b)` first, and `S` in the
    // name would be read as a sleeping thread by a parser that splits on spaces.
    #expect(ProcFS.threadState(stat: "77 (a (b) c) t 1 77 77 0 -1") == .stopped)
    #expect(ProcFS.threadState(stat: "77 (S R) ) T 1 77 77 0 -1") == .stopped)
  }

  @Test func aStatTextThatDoesNotParseIsUnknown() {
    #expect(ProcFS.threadState(stat: "") == .unknown)
    #expect(ProcFS.threadState(stat: "77 (cut") == .unknown)
    #expect(ProcFS.threadState(stat: "77 (ends)") == .unknown)
  }

  @Test func aStatusTextGivesItsTracer() {
    let status = { (tracer: String) in
      "Name:\tswift-effectsPa\nUmask:\t0022\nState:\tS (sleeping)\nTgid:\t10437\nPid:\t10437\nPPid:\t10430\n"
        + "TracerPid:\t\(tracer)\nUid:\t0\t0\t0\t0\n"
    }
    #expect(ProcFS.tracerPID(status: status("0")) == 0)
    #expect(ProcFS.tracerPID(status: status("4242")) == 4242)
    #expect(ProcFS.tracerPID(status: "Name:\tsleep\nPid:\t7\n") == nil)
  }

  // MARK: This platform

  #if os(Linux)
  @Test func linuxNamesItself() {
    #expect(Platform.operatingSystem == "Linux")
  }

  @Test func thisProcessStatusHasATracerLineThatMatchesIsTraced() throws {
    let status = try String(contentsOfFile: "/proc/self/status", encoding: .utf8)
    let tracer = try #require(ProcFS.tracerPID(status: status))
    #expect(Platform.isTraced == (tracer != 0))
  }

  /// The thread is known by its id, the same one `/proc/thread-self` names.
  @Test func aThreadIsKnownByItsOwnID() throws {
    let stat = try String(contentsOfFile: "/proc/thread-self/stat", encoding: .utf8)
    let id = try #require(stat.split(separator: " ").first)
    #expect(Platform.currentThread()?.statPath == "/proc/self/task/\(id)/stat")
  }

  @Test func aThreadReadingItselfIsRunning() throws {
    let thread = try #require(Platform.currentThread())
    #expect(Platform.state(of: thread) == .running)
  }

  @Test func aThreadBlockedOnASemaphoreIsWaiting() throws {
    let captured = Locked<Platform.Thread?>(nil)
    let release = DispatchSemaphore(value: 0)
    let ended = DispatchSemaphore(value: 0)
    Thread.detachNewThread {
      captured.withLock { $0 = Platform.currentThread() }
      release.wait()
      ended.signal()
    }
    defer {
      release.signal()
      ended.wait()
    }
    #expect(Self.poll { captured.snapshot != nil })
    let thread = try #require(captured.snapshot)
    #expect(Self.poll { Platform.state(of: thread) == .waiting })
  }

  /// A stopped thread of this process cannot be had without stopping the process (`SIGSTOP` to one
  /// thread stops them all), so the stopped state is read from a child's `stat` file, through the
  /// same reader.
  @Test func aChildStoppedBySIGSTOPIsStoppedAndWaitingOnceContinued() throws {
    let child = Process()
    child.executableURL = URL(fileURLWithPath: "/bin/sleep")
    child.arguments = ["30"]
    try child.run()
    let pid = child.processIdentifier
    defer {
      kill(pid, SIGKILL)
      child.waitUntilExit()
    }
    let thread = Platform.Thread(statPath: "/proc/\(pid)/stat")
    #expect(Self.poll { Platform.state(of: thread) == .waiting })
    kill(pid, SIGSTOP)
    #expect(Self.poll { Platform.state(of: thread) == .stopped })
    kill(pid, SIGCONT)
    #expect(Self.poll { Platform.state(of: thread) == .waiting })
  }

  @Test func aThreadThatNoLongerExistsIsUnknown() {
    #expect(Platform.state(of: Platform.Thread(statPath: "/proc/self/task/0/stat")) == .unknown)
  }
  #endif

  /// Whether `condition` holds within 10 s of real time, looked at every 10 ms: how long the kernel
  /// takes to deliver a signal or put a thread to sleep is not ours to choose.
  private static func poll(_ condition: () -> Bool) -> Bool {
    let deadline = Date(timeIntervalSinceNow: 10)
    while !condition() {
      guard Date() < deadline else { return false }
      usleep(10_000)
    }
    return true
  }
}
