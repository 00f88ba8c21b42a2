package org.chartstream.runtime;

import java.io.IOException;
import java.lang.invoke.MethodHandle;
import java.lang.reflect.Array;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Locale;
import java.util.Optional;
import java.util.OptionalInt;

/**
 * The Linux nice value of the calling thread. Java's own thread priorities change nothing on Linux unless the JVM runs
 * as root with {@code -XX:ThreadPriorityPolicy=1}, and then only to nice 4; {@code setpriority(PRIO_PROCESS, 0, n)}
 * sets any nice value at or above the current one without privileges, and on Linux it acts on the calling thread
 * alone (a thread is its own task there). On another OS it would act on the whole process, so it is not called.
 * The call goes through the foreign function API, looked up at run time: the bytecode is for Java 21, where that API
 * is a preview (final since 22); where it cannot be used the thread keeps its priority.
 */
final class ThreadNice {
    private static final int PRIO_PROCESS = 0;
    private static final Path OWN_STAT = Path.of("/proc/thread-self/stat");
    /** Field 19 of {@code stat} is the nice value; the fields after the command's closing parenthesis start at 3. */
    private static final int NICE_AFTER_COMMAND = 19 - 3;

    private ThreadNice() {
    }

    /** @return whether the calling thread now has {@code nice} */
    static boolean setForCurrentThread(int nice) {
        if (!System.getProperty("os.name", "").toLowerCase(Locale.ROOT).startsWith("linux")) {
            return false;
        }
        try {
            return (int) setpriority().invoke(PRIO_PROCESS, 0, nice) == 0;
        } catch (Throwable notAvailable) {
            return false;
        }
    }

    /** {@code int setpriority(int which, int who, int prio)} from the C library, as a method handle. */
    private static MethodHandle setpriority() throws ReflectiveOperationException {
        Class<?> linkerType = Class.forName("java.lang.foreign.Linker");
        Class<?> layoutType = Class.forName("java.lang.foreign.MemoryLayout");
        Class<?> descriptorType = Class.forName("java.lang.foreign.FunctionDescriptor");
        Class<?> optionType = Class.forName("java.lang.foreign.Linker$Option");
        Object linker = linkerType.getMethod("nativeLinker").invoke(null);
        Object libc = linkerType.getMethod("defaultLookup").invoke(linker);
        Object symbol = ((Optional<?>) Class.forName("java.lang.foreign.SymbolLookup").getMethod("find", String.class)
                .invoke(libc, "setpriority")).orElseThrow();
        Object javaInt = Class.forName("java.lang.foreign.ValueLayout").getField("JAVA_INT").get(null);
        Object threeInts = Array.newInstance(layoutType, 3);
        for (int i = 0; i < 3; i++) {
            Array.set(threeInts, i, javaInt);
        }
        Object descriptor = descriptorType.getMethod("of", layoutType, threeInts.getClass()).invoke(null, javaInt, threeInts);
        return (MethodHandle) linkerType.getMethod("downcallHandle", Class.forName("java.lang.foreign.MemorySegment"), descriptorType,
                optionType.arrayType()).invoke(linker, symbol, descriptor, Array.newInstance(optionType, 0));
    }

    /** The calling thread's nice value as the kernel reports it; empty where there is no {@code /proc}. */
    static OptionalInt ofCurrentThread() {
        try {
            String stat = Files.readString(OWN_STAT);
            String[] fields = stat.substring(stat.lastIndexOf(')') + 2).split(" ");
            return OptionalInt.of(Integer.parseInt(fields[NICE_AFTER_COMMAND]));
        } catch (IOException | RuntimeException noProc) {
            return OptionalInt.empty();
        }
    }
}
