import CourierTool
import Foundation

exit(await CourierTool.courier.run(Array(CommandLine.arguments.dropFirst())))
