package org.chartstream.runtime.config;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.chartstream.core.binding.CodeLookup;
import org.chartstream.core.binding.EmbedPolicy;
import org.chartstream.core.binding.TableRole;
import org.chartstream.runtime.config.BindingFile.BindingLine;

/** The value syntax of a binding file's attributes: names, name lists, roles, lookups, embedding policies. */
final class BindingValues {
    static final Pattern IDENTIFIER = Pattern.compile("[A-Za-z_][A-Za-z0-9_$]*");
    private static final String NAMES = "\\s*([^()]+?)\\s*";
    private static final Pattern LOOKUP = Pattern.compile(NAMES + "->\\s*([^\\s(]+)\\s*\\(" + NAMES + "\\)\\s*\\.\\s*(\\S+)\\s*");
    private static final Pattern EMBED_FIELDS = Pattern.compile("fields\\s*:(.*)");

    private BindingValues() {
    }

    /** One column (or field) name. */
    static String name(BindingLine at, String value) {
        if (value.isEmpty()) {
            throw at.error("needs a value");
        }
        if (!IDENTIFIER.matcher(value).matches()) {
            throw at.error("'" + value + "' is not one name (letters, digits, '_', '$')");
        }
        return value;
    }

    /** A comma list of names, each at most once; empty is none. */
    static List<String> names(BindingLine at, String value) {
        List<String> names = new ArrayList<>();
        if (value.isBlank()) {
            return names;
        }
        for (String part : value.split(",", -1)) {
            String name = name(at, part.strip());
            if (names.contains(name)) {
                throw at.error("lists '" + name + "' twice");
            }
            names.add(name);
        }
        return names;
    }

    /** Free words (a concept, a label), not empty. */
    static String words(BindingLine at, String value) {
        if (value.isEmpty()) {
            throw at.error("needs a value");
        }
        return value;
    }

    /** A comma list of words (terms naming a column in questions), each at least one. */
    static List<String> wordList(BindingLine at, String value) {
        List<String> words = Arrays.stream(value.split(",", -1)).map(String::strip).toList();
        if (words.stream().anyMatch(String::isEmpty)) {
            throw at.error("needs comma-separated words, none empty");
        }
        return words;
    }

    static TableRole role(BindingLine at, String value) {
        for (TableRole role : TableRole.values()) {
            if (role.name().toLowerCase(Locale.ROOT).equals(value)) {
                return role;
            }
        }
        throw at.error("unknown role '" + value + "' (patient, encounter, event or dictionary)");
    }

    /** {@code code columns -> dictionary(key columns).meaning column}, giving the row the field {@code field}. */
    static CodeLookup lookup(BindingLine at, String field, String value) {
        Matcher m = LOOKUP.matcher(value);
        if (!m.matches()) {
            throw at.error("'" + value + "' does not parse as '<code columns> -> <dictionary>(<key columns>).<meaning column>'");
        }
        List<String> codes = names(at, m.group(1));
        List<String> keys = names(at, m.group(3));
        if (codes.size() != keys.size()) {
            throw at.error("names " + codes.size() + " code column(s) but " + keys.size() + " key column(s) of "
                    + m.group(2) + ": they are matched one by one");
        }
        return new CodeLookup(codes, name(at, m.group(2)), keys, name(at, m.group(4)), field);
    }

    /** {@code row} or {@code fields: a, b}. */
    static EmbedPolicy embed(BindingLine at, String value) {
        if (value.equals("row")) {
            return EmbedPolicy.ROW;
        }
        Matcher m = EMBED_FIELDS.matcher(value);
        if (!m.matches() || m.group(1).isBlank()) {
            throw at.error("'" + value + "' is neither 'row' nor 'fields: <field>, <field>...'");
        }
        return EmbedPolicy.fields(names(at, m.group(1).strip()));
    }
}
