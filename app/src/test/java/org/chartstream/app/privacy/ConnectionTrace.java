package org.chartstream.app.privacy;

import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The socket addresses a process tree connected or sent to, read from {@code strace -f -e
 * trace=connect,sendto,sendmsg,sendmmsg} output. Every such system call names its peer's address family and, for
 * IP, the address: that is every way a process can reach another host, whether the attempt succeeded or not.
 */
final class ConnectionTrace {
    /** One peer address from one system call. */
    record Peer(String family, String address, int port, String line) {
        boolean local() {
            return switch (family) {
                case "AF_UNIX", "AF_NETLINK", "AF_UNSPEC" -> true; // same host: files, the kernel, a disconnect
                case "AF_INET" -> address.startsWith("127.");
                case "AF_INET6" -> address.equals("::1") || address.startsWith("::ffff:127.");
                default -> false;
            };
        }
    }

    private static final Pattern FAMILY = Pattern.compile("sa_family=(AF_[A-Z0-9]+)");
    private static final Pattern INET = Pattern.compile("sin_port=htons\\((\\d+)\\), sin_addr=inet_addr\\(\"([^\"]+)\"\\)");
    private static final Pattern INET6 = Pattern.compile("sin6_port=htons\\((\\d+)\\).*?inet_pton\\(AF_INET6, \"([^\"]+)\"");
    private static final Set<String> CALLS = Set.of("connect(", "sendto(", "sendmsg(", "sendmmsg(");

    private ConnectionTrace() {
    }

    static List<Peer> peers(String straceOutput) {
        List<Peer> peers = new ArrayList<>();
        for (String line : straceOutput.split("\n")) {
            if (CALLS.stream().noneMatch(line::contains)) {
                continue;
            }
            Matcher family = FAMILY.matcher(line);
            while (family.find()) {
                String f = family.group(1);
                String rest = line.substring(family.end());
                Matcher m = f.equals("AF_INET") ? INET.matcher(rest) : f.equals("AF_INET6") ? INET6.matcher(rest) : null;
                if (m != null && m.find()) {
                    peers.add(new Peer(f, m.group(2), Integer.parseInt(m.group(1)), line));
                } else {
                    peers.add(new Peer(f, "", 0, line));
                }
            }
        }
        return peers;
    }
}
