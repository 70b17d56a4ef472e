public import Foundation

extension Environment {
  /// Creates an environment from every built-in co-effect.
  ///
  /// Deprecated: a list of every field grows with each co-effect the library adds. Start from
  /// ``live`` (or a test environment) and set the fields that differ:
  ///
  /// ```swift
  /// var environment = Environment.live
  /// environment.clock = FixedClock(date)
  /// ```
  @available(*, deprecated, message: "start from Environment.live and set the fields that differ")
  public init(
    clock: any WallClock,
    bundle: any ResourceBundle,
    fileReader: any FileReader,
    fileWriter: any FileWriter,
    defaults: any DefaultsStore,
    scheduler: any Scheduling,
    console: any Console,
    events: (any EventLogging)? = nil,
    calendar: Calendar,
    locale: Locale,
    timeZone: TimeZone
  ) {
    self.init()
    self.clock = clock
    self.bundle = bundle
    self.fileReader = fileReader
    self.fileWriter = fileWriter
    self.defaults = defaults
    self.scheduler = scheduler
    self.console = console
    if let events { self.events = events }
    self.calendar = calendar
    self.locale = locale
    self.timeZone = timeZone
  }
}
