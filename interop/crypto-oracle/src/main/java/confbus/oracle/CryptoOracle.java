package confbus.oracle;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import org.springframework.cloud.config.environment.Environment;
import org.springframework.cloud.config.environment.PropertySource;
import org.springframework.cloud.config.server.encryption.CipherEnvironmentEncryptor;
import org.springframework.cloud.config.server.encryption.EncryptionController;
import org.springframework.cloud.config.server.encryption.KeyStoreTextEncryptorLocator;
import org.springframework.cloud.config.server.encryption.SingleTextEncryptorLocator;
import org.springframework.cloud.config.server.encryption.TextEncryptorLocator;
import org.springframework.cloud.context.encrypt.EncryptorFactory;
import org.springframework.core.io.FileSystemResource;
import org.springframework.http.MediaType;
import org.springframework.security.crypto.encrypt.KeyStoreKeyFactory;
import org.springframework.security.crypto.encrypt.RsaAlgorithm;

/**
 * Spring's encryption, driven line by line. Each request line is three tab-separated base64 fields:
 * operation, settings (NUL-separated key/value pairs: Spring's encrypt.* keys, plus oracle.name,
 * oracle.profiles and spring.cloud.config.server.encrypt.prefix-invalid-properties), and input. Each answer
 * line is "ok" or "error" and a base64 field: the result, or the exception's class and message.
 *
 * Operations, each through the class a Spring Config Server uses for it:
 *   encrypt / decrypt  EncryptionController.encrypt / decrypt (text/plain body)
 *   key                EncryptionController.getPublicKey
 *   environment        CipherEnvironmentEncryptor.decrypt over one property source whose entries are the
 *                      input's NUL-separated pairs; the answer lists the resulting entries the same way
 * Keys are built as Spring's auto-configuration builds them: EncryptorFactory for encrypt.key, and
 * KeyStoreTextEncryptorLocator (with encrypt.rsa.*) for encrypt.key-store.*.
 */
public final class CryptoOracle {

	private CryptoOracle() {
	}

	public static void main(String[] args) throws Exception {
		PrintStream out = new PrintStream(System.out, true, StandardCharsets.UTF_8);
		BufferedReader in = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8));
		out.println("ready");
		for (String line = in.readLine(); line != null; line = in.readLine()) {
			if (line.isBlank()) {
				continue;
			}
			String[] fields = line.split("\t", -1);
			try {
				String result = handle(decode(fields[0]), pairs(decode(fields[1])), decode(fields[2]));
				out.println("ok\t" + encode(result));
			}
			catch (Throwable ex) {
				out.println("error\t" + encode(ex.getClass().getSimpleName() + ": " + ex.getMessage()));
			}
		}
	}

	private static String handle(String operation, Map<String, String> settings, String input) {
		TextEncryptorLocator locator = locator(settings);
		String name = settings.getOrDefault("oracle.name", "application");
		String profiles = settings.getOrDefault("oracle.profiles", "default");
		EncryptionController controller = new EncryptionController(locator);
		switch (operation) {
			case "encrypt":
				return controller.encrypt(name, profiles, input, MediaType.TEXT_PLAIN);
			case "decrypt":
				return controller.decrypt(name, profiles, input, MediaType.TEXT_PLAIN);
			case "key":
				return controller.getPublicKey(name, profiles);
			case "environment":
				return environment(locator, settings, name, profiles, input);
			default:
				throw new IllegalArgumentException("unknown operation " + operation);
		}
	}

	private static String environment(TextEncryptorLocator locator, Map<String, String> settings, String name,
			String profiles, String input) {
		CipherEnvironmentEncryptor encryptor = new CipherEnvironmentEncryptor(locator);
		encryptor.setPrefixInvalidProperties(Boolean.parseBoolean(
				settings.getOrDefault("spring.cloud.config.server.encrypt.prefix-invalid-properties", "true")));
		Environment environment = new Environment(name, profiles.split(","));
		environment.add(new PropertySource("oracle", new LinkedHashMap<Object, Object>(pairs(input))));
		Map<?, ?> result = encryptor.decrypt(environment).getPropertySources().get(0).getSource();
		List<String> parts = new ArrayList<>();
		for (Map.Entry<?, ?> entry : result.entrySet()) {
			parts.add(String.valueOf(entry.getKey()));
			parts.add(String.valueOf(entry.getValue()));
		}
		return String.join("\0", parts);
	}

	private static TextEncryptorLocator locator(Map<String, String> settings) {
		String location = settings.get("encrypt.key-store.location");
		if (location != null) {
			String password = settings.get("encrypt.key-store.password");
			KeyStoreTextEncryptorLocator locator = new KeyStoreTextEncryptorLocator(
					new KeyStoreKeyFactory(new FileSystemResource(location), password.toCharArray(),
							settings.getOrDefault("encrypt.key-store.type", "jks")),
					settings.getOrDefault("encrypt.key-store.secret", password), settings.get("encrypt.key-store.alias"));
			locator.setRsaAlgorithm(RsaAlgorithm.valueOf(settings.getOrDefault("encrypt.rsa.algorithm", "DEFAULT")));
			locator.setStrong(Boolean.parseBoolean(settings.getOrDefault("encrypt.rsa.strong", "false")));
			locator.setSalt(settings.getOrDefault("encrypt.rsa.salt", "deadbeef"));
			return locator;
		}
		EncryptorFactory factory = new EncryptorFactory(settings.getOrDefault("encrypt.salt", "deadbeef"));
		return new SingleTextEncryptorLocator(factory.create(settings.get("encrypt.key")));
	}

	private static Map<String, String> pairs(String text) {
		Map<String, String> map = new LinkedHashMap<>();
		if (text.isEmpty()) {
			return map;
		}
		String[] parts = text.split("\0", -1);
		for (int i = 0; i + 1 < parts.length; i += 2) {
			map.put(parts[i], parts[i + 1]);
		}
		return map;
	}

	private static String decode(String field) {
		return new String(Base64.getDecoder().decode(field), StandardCharsets.UTF_8);
	}

	private static String encode(String text) {
		return Base64.getEncoder().encodeToString(text.getBytes(StandardCharsets.UTF_8));
	}

}
