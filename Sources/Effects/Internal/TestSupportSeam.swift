/// The seam between `Effects` and `EffectsTestSupport`: every `package` declaration of `Effects`
/// that test support uses, by file, and why it crosses. `Effects` ships inside apps and never
/// imports a test framework; what test support needs from it is `package`, so it is invisible to
/// apps (no SPI, no public symbol). `python3 .ci/seam/check.py` fails when test support uses a
/// `package` declaration of `Effects` that the row of its file does not name, or a row names one
/// that no longer crosses. It matches by name, so a name test support uses for something else
/// counts as crossing: the table may say a little more than crosses, never less.
///
/// | File of `Effects` | What crosses | Why |
/// | --- | --- | --- |
/// | `Internal/TestSupportLink.swift` | `TestIssueReporting`, `TestSupportLink`, `isRunningTests`, `reportLiveRead`, `testEnvironment`, `StandardErrorSink`, `current`, `warn` | How `Effects` reports into the running test: test support implements the protocol, and its tests capture what would go to standard error. |
/// | `Environment/Environment+Testing.swift` | `TestContext`, `Reads`, `callSite`, `origin`, `reads`, `report` | What an environment made by test support knows about its test: where it was made, and how a read of an unset co-effect is reported. |
/// | `Environment/Environment.swift` | `BuiltInValue`, `given`, `set`, `decorating`, `init`, `testContext` | How test support builds `Environment.test()` and the recording environment: sets, wraps and reads back built-in co-effects without going through their public setters' checks; a `ModelTester` reads the doubles of a test environment without a read being reported, and tells a model's live environment from a test's. |
/// | `Environment/BuiltInKey.swift` | `BuiltInKey` | The protocol of the built-in co-effects' keys: a `ModelTester` reads the doubles it records, each by its key. |
/// | `Environment/Environment+Current.swift` | `scoped` | The task-local behind `Environment.current`, which test support's traits and scopes bind. |
/// | `Environment/BuiltIns/Environment+*.swift` (14 co-effects) | `BundleKey`, `ClockKey`, `ConsoleKey`, `ContinuousClockKey`, `DefaultsStoreKey`, `EventsKey`, `FileReaderKey`, `FileWriterKey`, `NetworkKey`, `SchedulerKey`, `UUIDKey`; each key's `liveValue`, `testValue`, `member`, `slot` | Each built-in co-effect's key: test support reads its test value, names it in reports (`member`), and stores into its slot. |
/// | `Internal/RootEnvironment.swift` | `shared`, `environment`, `bootstrap`, `report`, `first`, `second`, `description` | The process's root environment, which test support's tests bootstrap and check for live reads. |
/// | `Internal/Locked.swift` | `Locked`, `withLock`, `snapshot` | The one lock type of the package. |
/// | `Internal/MainQueue.swift` | `MainQueue`, `isCurrent` | Whether the caller runs where the main actor does, asked without trapping: a `ModelTester` reads a main-actor model at a scope's end only there. |
/// | `Internal/JSONValue.swift` | JSON values' `encode`, `matches`, `redacting`, `data` | The JSON model network tapes are written in, which test support's tapes and stubs read and redact. |
/// | `Internal/describeMessage.swift` | `describeBody` | How a request or response body is shown in a report, the same in both modules. |
/// | `Reporting/ReportBudget.swift` | `ReportBudget`, `bounded`, `clipped`, `prefix`, `quoted`, `characters`, `head`, `headers`, `tail`, `valueCharacters` | The bounds every printed text keeps, in both modules. |
/// | `Reporting/ReportKind.swift` | `tagged`, `libraryFault` | How a report carries its kind, and the kind of a fault in the library itself. |
/// | `Reporting/Duration+Literal.swift` | `literal` | How a duration is written in a report: as Swift code (`.milliseconds(300)`). |
/// | `Reporting/CallSite.swift` | `init` | Test support makes call sites from its callers' `#fileID` and `#line`. |
/// | `Coeffects/DurationClock.swift` | `CallerIsolatedClock`, `continuous`, `offset`, `init` | The environment's clock is a `DurationClock`; a scope's virtual clock is a `CallerIsolatedClock` behind it. |
/// | `Coeffects/SystemClock.swift`, `Coeffects/SystemUUIDs.swift`, `Describing/StandardOutput.swift` | `now`, `callAsFunction`, `StandardOutput`, `print`, `init` | The live values a live-in-test report names, and wraps to record. |
/// | `Coeffects/DefaultsCodingError.swift`, `Describing/InterpreterError.swift` | `init` | Test support's in-memory doubles throw the same errors as the live ones. |
/// | `Network/NetworkRequest.swift`, `Network/NetworkResponse.swift` | `boundedHead`, `target` | How a request and a response are named in a report. |
/// | `Network/NetworkTape.swift`, `NetworkTape+File.swift`, `NetworkTape+Redaction.swift`, `NetworkTape+Secrets.swift` | `answers`, `apply`, `secrets`, `Secret`, `exchange`, `kind`, `length`, `path`, `remedy`, `quoted`, `init` | Tapes are recorded and replayed by test support's `StubNetwork`; the redaction and the secret scan that keep a tape from holding a secret are `Effects`', so an app and a test redact alike. |
/// | `Network/URLSessionNetwork.swift` | `session` | The live network a live-in-test report names. |
/// | `Scheduling/ScheduledWork.swift`, `Scheduling/DispatchScheduler.swift` | `WorkCancelling`, `queue`, `init` | Work a `TestScheduler` schedules is cancelled through the same handle as the live scheduler's. |
/// | `Running/EffectRunner.swift` | `start` | `FeatureTester` starts a feature's effects as the runner does. |
package enum TestSupportSeam {}
