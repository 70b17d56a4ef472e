// Every guard the check must accept. Each `[G…]` line uses an API newer than the floor, and must
// not be reported; ../../../run.py checks that each is reported once the guards are ignored.

@available(macOS 15.0, iOS 18.0, tvOS 18.0, watchOS 11.0, *)
func inAvailableFunction() -> any TaskExecutor {  // [G-signature]
  globalConcurrentExecutor  // [G-function]
}

@available(macOS 15.0, iOS 18.0, tvOS 18.0, watchOS 11.0, *)
struct AvailableType {
  var executor: any TaskExecutor { globalConcurrentExecutor }  // [G-member]

  struct Nested {
    func executor() { _ = globalConcurrentExecutor }  // [G-nested]
  }

  func callsOwn() -> Int { newOwnThing() }  // [G-own]
}

// No attribute: an extension of an @available type has the type's availability.
extension AvailableType {
  func fromExtension() { _ = globalConcurrentExecutor }  // [G-extension]
}

func ifAvailable() {
  if #available(macOS 15.0, iOS 18.0, tvOS 18.0, watchOS 11.0, *) {
    _ = globalConcurrentExecutor  // [G-if]
  } else if #available(macOS 14.0, iOS 17.0, tvOS 17.0, watchOS 10.0, *) {
    _ = ExecutorJob.self  // [G-else-if]
  }
  if #unavailable(macOS 15.0, iOS 18.0, tvOS 18.0, watchOS 11.0) {
    _ = 0
  } else {
    _ = globalConcurrentExecutor  // [G-unavailable-else]
  }
  while #available(macOS 15.0, iOS 18.0, tvOS 18.0, watchOS 11.0, *) {
    _ = globalConcurrentExecutor  // [G-while]
    break
  }
}

func guardAvailable() -> Int {
  guard #available(macOS 15.0, iOS 18.0, tvOS 18.0, watchOS 11.0, *) else { return 0 }
  _ = globalConcurrentExecutor  // [G-guard]
  return newOwnThing()  // [G-guard-end]
}

func guardCondition() -> Int {
  guard #available(macOS 15.0, iOS 18.0, tvOS 18.0, watchOS 11.0, *),
    newOwnThing() > 0  // [G-guard-condition]
  else { return 0 }
  return 1
}

@available(FixtureExecutors, *)
func withMacro() {
  _ = globalConcurrentExecutor  // [G-macro]
}

func withMacroCondition() {
  if #available(FixtureExecutors, *) {
    _ = globalConcurrentExecutor  // [G-macro-condition]
  }
}

#if os(Linux)
// Not compiled for any Apple platform.
func linuxOnly() { _ = globalConcurrentExecutor }  // [G-if-os]
#endif

#if canImport(Darwin)
// Never compiled here: `--unseen` lists this line.
let darwinOnly = 1  // [UNSEEN]
#endif
